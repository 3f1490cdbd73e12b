/** Key of a raw alert message: the integration id, so one integration's payloads stay in order. */
export type RawAlertKey = string;
