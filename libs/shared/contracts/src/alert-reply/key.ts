/** Key of a reply: the id of the gateway instance that waits for it. */
export type AlertReplyKey = string;
