import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface KafkaJars {
  /** Folder with every jar the broker needs (`java -cp '<dir>/*'`). */
  libDir: string;
  /** True when this call ran Maven (the first run, or after a pom change). */
  fetched: boolean;
}

/**
 * Makes sure `.kafka/lib` holds the jars listed by tools/kafka/pom.xml. Maven runs only when the
 * folder is missing or was filled from a different pom; it downloads into ~/.m2 once, so later
 * fills need no network. Concurrent callers (a test run and `npm start`) each fill a private
 * folder and rename it into place; the loser keeps the winner's copy.
 */
export async function ensureKafkaJars(repoRoot: string, log: (message: string) => void = () => undefined): Promise<KafkaJars> {
  const pom = join(repoRoot, 'tools', 'kafka', 'pom.xml');
  const kafkaDir = join(repoRoot, '.kafka');
  const libDir = join(kafkaDir, 'lib');
  const pomHash = createHash('sha256').update(await readFile(pom)).digest('hex').slice(0, 16);
  const marker = `.complete-${pomHash}`;
  if (existsSync(join(libDir, marker))) return { libDir, fetched: false };

  await mkdir(kafkaDir, { recursive: true });
  const staging = join(kafkaDir, `lib.staging-${process.pid}-${Date.now()}`);
  log(`Collecting Apache Kafka jars with Maven into ${libDir} (first run downloads ~46 MB into ~/.m2)`);
  try {
    await execFileAsync('mvn', ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${staging}`], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Could not collect the Kafka jars with Maven (needs mvn and, on the first run, access to Maven Central). ${detail}`,
    );
  }
  const jars = (await readdir(staging)).filter((file) => file.endsWith('.jar'));
  if (!jars.some((file) => /^kafka_2\.13-.*\.jar$/.test(file))) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`Maven finished but ${staging} holds no kafka_2.13 jar`);
  }
  await writeFile(join(staging, marker), `${jars.length} jars\n`);

  if (existsSync(join(libDir, marker))) {
    await rm(staging, { recursive: true, force: true });
  } else {
    // A folder filled from an older pom is replaced as a whole, so no stale jar stays on the classpath.
    const retired = `${libDir}.old-${process.pid}-${Date.now()}`;
    if (existsSync(libDir)) await rename(libDir, retired);
    try {
      await rename(staging, libDir);
    } catch (error) {
      if (!existsSync(join(libDir, marker))) throw error;
      await rm(staging, { recursive: true, force: true });
    }
    await rm(retired, { recursive: true, force: true });
  }
  return { libDir, fetched: true };
}
