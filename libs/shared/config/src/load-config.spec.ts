import { IsInt, Max, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { BaseEnv } from './base-env';
import { ConfigurationError, loadConfig } from './load-config';

class TestEnv extends BaseEnv {
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(10)
  WORKERS = 2;
}

describe('loadConfig', () => {
  it('uses the defaults when nothing is set', () => {
    const config = loadConfig(TestEnv, {});
    expect(config.KAFKA_BROKERS).toBe('127.0.0.1:9092');
    expect(config.WORKERS).toBe(2);
  });

  it('reads and converts given values', () => {
    const config = loadConfig(TestEnv, { WORKERS: '7', PORT: '8080', KAFKA_BROKERS: 'a:1,b:2' });
    expect(config.WORKERS).toBe(7);
    expect(config.PORT).toBe(8080);
    expect(config.KAFKA_BROKERS).toBe('a:1,b:2');
  });

  it('names every bad variable', () => {
    try {
      loadConfig(TestEnv, { WORKERS: 'many', DATABASE_URL: 'mysql://x' });
      throw new Error('expected a ConfigurationError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      const configError = error as ConfigurationError;
      expect(configError.variables.sort()).toEqual(['DATABASE_URL', 'WORKERS']);
      expect(configError.message).toContain('WORKERS="many"');
      expect(configError.message).toContain('postgresql://');
    }
  });
});
