import SampleSupport
import StoreKitCore
import Testing

@testable import ReplayDaemon

@Suite struct SessionFileNameTests {
    /// Pairs of (store id, session id) that earlier namings, or careless ones, gave one file.
    static let trickyIDs: [(store: String, session: String)] = [
        // A `-` in either id moved between the parts.
        ("probe-a", "b"), ("probe", "a-b"), ("probe-a-b", "c"), ("probe", "a-b-c"), ("probe-a", "b-c"),
        // An id that was changed, against the literal text it used to become, and against its own escaped form.
        ("counter", "x/"), ("counter", "x_-0262f878"), ("counter", "x_"), ("counter", "x%2F"), ("counter", "x%2f"),
        // Two ids whose 32-bit FNV-1a hashes collide (the earlier naming's hash).
        ("counter", "!$%,?"), ("counter", "!@^@$"),
        // Ids that differ only in case, which a case-insensitive file system (macOS) does not tell apart.
        ("counter", "a"), ("counter", "A"), ("Counter", "a"), ("COUNTER", "a"), ("counter", "%41"),
        // The hash's marker, written literally.
        ("counter", "a~"), ("counter", "a~0000000000000000"), ("counter", "a%7E"),
        // Leading dots, which must not hide a file.
        (".hidden", "s"), ("%2Ehidden", "s"), ("_hidden", "s"), ("hidden", ".s"), ("hidden", "%2Es"),
        // The same text in two Unicode normal forms: distinct bytes, distinct files.
        ("counter", "\u{E9}"), ("counter", "e\u{301}"),
        // Long ids that share a start, cut and hashed.
        ("counter", String(repeating: "a", count: 100)), ("counter", String(repeating: "a", count: 101)),
        ("counter", String(repeating: "a", count: 1024)), ("counter", String(repeating: "a", count: 1023) + "b"),
        ("counter", String(repeating: "/", count: 30)), ("counter", String(repeating: "/", count: 31)),
        (String(repeating: "s", count: 1024), "a"), (String(repeating: "s", count: 1024), "b"),
    ]

    @Test func trickyIDsGetDistinctNamesEvenIgnoringCase() {
        let names = Self.trickyIDs.map { SessionFileName.make(storeID: $0.store, sessionID: $0.session) }
        let folded = Set(names.map { Array($0.lowercased().utf8) })
        #expect(folded.count == Self.trickyIDs.count, "\(names)")
        for name in names { Self.expectSafe(name) }
    }

    @Test func randomIDsOverTheCharactersThatMatterNeverShareAName() {
        // Given 8,000 random pairs of short ids made of the characters the naming treats specially
        let alphabet = Array("aA2F-_.%~/é ".unicodeScalars)
        var random = SeededRandom(seed: 34)
        var pairs: Set<[UInt8]> = []
        var names: [[UInt8]: [UInt8]] = [:]
        for _ in 0..<8_000 {
            let ids = (0..<2).map { _ in
                String(String.UnicodeScalarView((0..<Int.random(in: 1...5, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                }))
            }
            let pair = Array(ids[0].utf8) + [0] + Array(ids[1].utf8)
            guard pairs.insert(pair).inserted else { continue }
            // Then no two pairs share a name, ignoring case
            let name = SessionFileName.make(storeID: ids[0], sessionID: ids[1])
            let previous = names.updateValue(pair, forKey: Array(name.lowercased().utf8))
            #expect(previous == nil, "\(ids) and an earlier pair both map to \(name)")
        }
    }

    @Test func plainIDsKeepTheirNamesAndOthersAreEscapedOrHashed() {
        #expect(SessionFileName.make(storeID: "todos", sessionID: "3f2a9c1e-77b0-4c1d") == "todos-3f2a9c1e-77b0-4c1d.jsonl")
        #expect(SessionFileName.make(storeID: "todos", sessionID: "../../etc/passwd") == "todos-%2E.%2F..%2Fetc%2Fpasswd.jsonl")
        #expect(SessionFileName.make(storeID: "probe-a", sessionID: "b") == "probe%2Da-b.jsonl")
        #expect(SessionFileName.make(storeID: "Todos", sessionID: "a") == "Todos~64004ee378b12d0a-a.jsonl")
    }

    /// A name stays inside the folder, is not hidden, fits a file name with room for a repair's suffix, and uses
    /// only characters that need no quoting in a shell.
    private static func expectSafe(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!name.hasPrefix(".") && !name.hasPrefix("-"), "\(name)", sourceLocation: sourceLocation)
        #expect(name.utf8.count <= 2 * SessionFileName.maxPartBytes + 7, "\(name)", sourceLocation: sourceLocation)
        #expect(
            name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-%~".unicodeScalars.contains($0)) },
            "\(name)", sourceLocation: sourceLocation)
    }
}
