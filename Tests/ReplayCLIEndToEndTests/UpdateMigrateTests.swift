import Foundation
import Testing

/// `update --migrate` writes the session a host migrated: its header's schema version, initial state and actions
/// change with its states. The host here is a script that answers as a host with a migration does.
@Suite struct UpdateMigrateTests {
    static let oldSession = """
        {"app":{"build":"1","name":"Items","schemaVersion":"1","version":"1.0"},"format":1,"host":"h","initialState":{"items":[]},"kind":"session","metadata":{},"pid":1,"sessionId":"s1","startedAt":"2026-01-01T00:00:00.000Z","storeId":"items"}
        {"action":{"append":{"id":1,"label":"a"}},"kind":"action","name":"append","origin":"app","seq":1,"state":{"items":[{"id":1,"label":"a"}]},"time":0.1}

        """
    static let migratedLines = [
        #"{"app":{"build":"1","name":"Items","schemaVersion":"2","version":"1.0"},"format":1,"host":"h","initialState":{"items":[]},"kind":"session","metadata":{},"pid":1,"sessionId":"s1","startedAt":"2026-01-01T00:00:00.000Z","storeId":"items"}"#,
        #"{"action":{"add":{"id":1,"title":"a"}},"kind":"action","name":"append","origin":"app","seq":1,"state":{"items":[{"id":1,"isPaused":false,"title":"a"}]},"time":0.1}"#,
    ]

    @Test func aMigratedSessionIsWrittenWithTheStoresSchemaVersion() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.write("items.jsonl", Self.oldSession)
        // A host that checks it was asked to migrate, and sends the session back migrated
        let lines = Self.migratedLines.map { "echo '{\"kind\":\"line\",\"line\":\($0)}'" }.joined(separator: "\n")
        let host = try scratch.write(
            "host.sh",
            """
            #!/bin/sh
            cat > /dev/null
            echo '{"kind":"hello","protocol":7,"stores":["items"]}'
            case "$2" in *'"migrate":true'*) ;; *) echo '{"kind":"result","failure":"not asked to migrate"}'; exit 0 ;; esac
            \(lines)
            echo '{"kind":"result","rerecorded":1}'
            """, executable: true)

        let outcome = try await CLI.run(["update", "items.jsonl", "--migrate", "--host", host, "--no-backup"], directory: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix(
                "updated items.jsonl: migrated from schema '1' to '2' (initial state, actions and states); 1 of 1 steps changed, at step 1\n"))
        #expect(try String(contentsOfFile: session, encoding: .utf8) == Self.migratedLines.joined(separator: "\n") + "\n")

        // Without --migrate the host is not asked to, and says why nothing was written
        _ = try scratch.write("items.jsonl", Self.oldSession)
        let refused = try await CLI.run(["update", "items.jsonl", "--host", host, "--no-backup"], directory: scratch.url)
        #expect(refused.status == 2)
        #expect(refused.stderr == "Error: items.jsonl: not asked to migrate\n")
        #expect(try String(contentsOfFile: session, encoding: .utf8) == Self.oldSession)
    }
}
