import StoreKitSystem

/// Where an effect's `EffectContext.random(in:)` draws from while the effect runs live; a replay takes the recorded
/// numbers instead. A store uses ``system`` unless given another; a test passes ``seeded(_:)`` to draw the same
/// numbers in every run.
public struct RandomGenerator: Sendable {
    private let next: @Sendable () -> UInt64

    /// A generator that calls `next` for each 64 random bits.
    public init(_ next: @escaping @Sendable () -> UInt64) {
        self.next = next
    }

    /// The next 64 random bits.
    public func callAsFunction() -> UInt64 {
        next()
    }

    /// The system's random numbers, as `Int.random(in:)` draws them.
    public static var system: RandomGenerator {
        RandomGenerator {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
    }

    /// The same bits for the same `seed`, in every run and on every platform (SplitMix64), so the same numbers
    /// wherever one Swift version draws them: each use of this function starts a sequence of its own.
    public static func seeded(_ seed: UInt64) -> RandomGenerator {
        let state = Locked<UInt64>(seed)
        return RandomGenerator {
            var bits = state.withLock { value in
                value &+= 0x9E37_79B9_7F4A_7C15
                return value
            }
            bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
            bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
            return bits ^ (bits >> 31)
        }
    }

    /// A random integer in `range`, drawn from this generator.
    func number(in range: ClosedRange<Int>) -> Int {
        var bits = Bits(generator: self)
        return Int.random(in: range, using: &bits)
    }

    /// A random number in `range`, drawn from this generator.
    func number(in range: Range<Double>) -> Double {
        var bits = Bits(generator: self)
        return Double.random(in: range, using: &bits)
    }

    /// The generator as the standard library's `RandomNumberGenerator`.
    private struct Bits: RandomNumberGenerator {
        let generator: RandomGenerator

        mutating func next() -> UInt64 { generator() }
    }
}
