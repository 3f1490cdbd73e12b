// class-transformer keeps the @Type() metadata in an internal module it does not export from its
// index; its declarations sit under types/, its code under cjs/.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
