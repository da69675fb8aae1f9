// A replay host, a test target and the tools read, compare and patch JSON: StoreKitReplay brings the JSON engine
// (StoreKitJSON) with it, as it brings StoreKitCore's session model.
@_exported import StoreKitJSON
