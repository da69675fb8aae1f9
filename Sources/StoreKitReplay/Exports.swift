// A replay host, a test target and the tools read, compare and patch JSON: StoreKitReplay brings the JSON engine
// (StoreKitJSON) with it, as it brings StoreKitCore's session model.
@_exported import StoreKitJSON
// A session that cannot be read names the system call that failed and the kind of file found (SessionReadError).
@_exported import struct StoreKitSystem.SystemError
@_exported import enum StoreKitSystem.FileKind
