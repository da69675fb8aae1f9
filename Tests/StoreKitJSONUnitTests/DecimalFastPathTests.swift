import SampleSupport
import Testing

@testable import StoreKitJSON

@Suite struct DecimalFastPathTests {
    private func fast(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { DecimalFastPath.double(plainDecimal: $0) }
    }

    @Test func plainDecimalsConvertToExactlyWhatParsingTheirTextGives() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<20_000 {
            let whole = random.next() % 1_000_000_000
            // At most 15 digits in all, so the significand stays under 2^53 and the fast path always applies.
            let fractionDigits = Int(random.next() % 7)
            let fraction = fractionDigits == 0 ? "" : "." + String(String(random.next()).suffix(fractionDigits))
            let text = (random.next() % 2 == 0 ? "-" : "") + String(whole) + fraction
            #expect(fast(text) == Double(text), "\(text)")
        }
        #expect(fast("-0.0")?.sign == .minus)
    }

    @Test func whatTheFastPathCannotTakeIsLeftToTheCaller() {
        #expect(fast("1e5") == nil)  // an exponent
        #expect(fast("12345678901234567890") == nil)  // 20 digits
        #expect(fast("9007199254740993") == nil)  // above 2^53: no longer exact
        #expect(fast("-") == nil)
        #expect(fast("") == nil)
        #expect(fast("1.2.3") == nil)
    }
}
