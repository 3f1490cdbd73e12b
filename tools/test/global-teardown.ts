export default async function globalTeardown(): Promise<void> {
  // Stops what global-setup started.
}
