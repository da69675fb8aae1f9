#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#else
#error("StoreKitCore needs a POSIX C library (Darwin, Glibc or Musl).")
#endif
