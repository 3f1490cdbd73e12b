// Integration specs talk to real servers; the first Kafka group join alone can take seconds.
jest.setTimeout(60_000);
