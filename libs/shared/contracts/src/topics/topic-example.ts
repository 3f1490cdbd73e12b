/** A record of a topic as the AsyncAPI document shows it (docs/asyncapi): its key and value. */
export interface TopicExample<Value> {
  /** A name of its own among the topic's examples (`alert.created`). */
  name: string;
  summary: string;
  key: string | null;
  value: Value;
}
