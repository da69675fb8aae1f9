import Foundation
import StoreKitSystem

/// Where an effect's ``EffectContext/uuid()`` takes new UUIDs from while the effect runs live; a replay takes the
/// recorded ones instead. A store uses ``random`` unless given another; a test passes ``incrementing`` to know the
/// values its effects draw.
public struct UUIDGenerator: Sendable {
    private let next: @Sendable () -> UUID

    /// A generator that calls `next` for each UUID.
    public init(_ next: @escaping @Sendable () -> UUID) {
        self.next = next
    }

    /// The next UUID.
    public func callAsFunction() -> UUID {
        next()
    }

    /// Random UUIDs, as `UUID()` makes them.
    public static var random: UUIDGenerator {
        UUIDGenerator { UUID() }
    }

    /// `00000000-0000-0000-0000-000000000000`, then `…0001`, `…0002` and so on: each use of this property starts a
    /// sequence of its own at zero.
    public static var incrementing: UUIDGenerator {
        let count = Locked<UInt64>(0)
        return UUIDGenerator {
            let number = count.withLock { value in
                defer { value += 1 }
                return value
            }
            return UUIDGenerator.uuid(numbered: number)
        }
    }

    /// The UUID whose last 16 hex digits are `number`'s and whose others are zero.
    static func uuid(numbered number: UInt64) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 0..<8 { raw[15 - index] = UInt8(truncatingIfNeeded: number >> (8 * UInt64(index))) }
        }
        return UUID(uuid: bytes)
    }
}
