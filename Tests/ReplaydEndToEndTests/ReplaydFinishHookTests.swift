import Foundation
import StoreKitTestFixtures
import Testing

/// `replayd --on-finish`: the command runs once for each session its app ended, never for one still open, with the
/// path as its last argument and the index line on standard input; failures are retried and logged; a slow command
/// never holds up the clients; what never succeeded is handed over again when the daemon next starts.
@Suite struct ReplaydFinishHookTests {
    /// A shell script in `folder` that appends `<path>\t<index line>` to `runs` for each run, after `prelude`.
    private func hookCommand(in folder: TemporaryFolder, prelude: String = "") throws -> String {
        let script = folder.path + "/hook.sh"
        let body = """
            dir=\(folder.path)
            \(prelude)
            printf '%s\\t' "$1" >> "$dir/runs"
            cat >> "$dir/runs"
            """
        try Data(body.utf8).write(to: URL(fileURLWithPath: script))
        return "/bin/sh " + script
    }

    /// The runs the hook script recorded, as (session file name, index line's JSON).
    private func runs(in folder: TemporaryFolder) -> [(file: String, index: [String: Any])] {
        let text = (try? String(contentsOfFile: folder.path + "/runs", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let index = (try? JSONSerialization.jsonObject(with: Data((parts.last ?? "").utf8))) as? [String: Any]
            return (URL(fileURLWithPath: parts[0]).lastPathComponent, index ?? [:])
        }
    }

    /// Records a whole session (header, `actions` actions, `end`) on a connection of its own.
    private func recordFinishedSession(_ session: String, actions: Int = 3, socket: String) throws {
        let client = try RawClient.startingSession(session, socket: socket)
        for sequence in 1...actions { try client.send(line: SessionLines.action(sequence)) }
        try client.send(line: SessionLines.end(actions: actions))
        client.close()
    }

    private func attempts(_ daemon: DaemonProcess, of file: String) -> [[String: Any]] {
        daemon.entries("hook.attempt").filter { ($0["file"] as? String)?.hasSuffix("/" + file) == true }
    }

    @Test func theCommandRunsOncePerFinishedSessionAndNeverForAnOpenOne() async throws {
        // Given a daemon with a command that notes its runs, and a session being recorded that stays open
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let command = try hookCommand(in: folder)
        var daemon = try await DaemonProcess(folder: folder, arguments: ["--on-finish", command])
        let open = try RawClient.startingSession("open", socket: folder.socket)
        try open.send(line: SessionLines.action(1))

        // When two other sessions are recorded to their end
        try recordFinishedSession("first", socket: folder.socket)
        try recordFinishedSession("second", actions: 5, socket: folder.socket)

        // Then the command ran for each of them once, with its path and its index line, and not for the open one
        await waitUntil("the command ran for both finished sessions") { daemon.count("hook.attempt") == 2 }
        #expect(runs(in: folder).map(\.file).sorted() == ["counter-first.jsonl", "counter-second.jsonl"])
        let second = try #require(runs(in: folder).first { $0.file == "counter-second.jsonl" }).index
        #expect(second["file"] as? String == "counter-second.jsonl")
        #expect(second["status"] as? String == "finished")
        #expect(second["actions"] as? Int == 5)
        #expect(second["storeId"] as? String == "counter")
        #expect(daemon.entries("hook.attempt").allSatisfy { $0["outcome"] as? String == "succeeded" })

        // And after a restart (the open session now ended as disconnected) and one more finished session, the
        // command has run once for each finished session, never again for the first two, never for the open one
        open.close()
        #expect(await daemon.stop() == 0)
        daemon = try await DaemonProcess(folder: folder, arguments: ["--on-finish", command], logName: "second.log")
        try recordFinishedSession("third", socket: folder.socket)
        await waitUntil("the command ran for the third session") { daemon.count("hook.attempt") == 1 }
        #expect(runs(in: folder).map(\.file).sorted() == ["counter-first.jsonl", "counter-second.jsonl", "counter-third.jsonl"])
        #expect(await daemon.stop() == 0)
        #expect(runs(in: folder).count == 3)
    }

    @Test func aFailingCommandIsRetriedWithBackoffAndEachRunIsLogged() async throws {
        // Given a command that fails its first two runs
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let command = try hookCommand(in: folder, prelude: """
            count=$(($(cat "$dir/count" 2>/dev/null || echo 0) + 1))
            echo "$count" > "$dir/count"
            if [ "$count" -lt 3 ]; then echo "store unreachable (run $count)" >&2; exit 7; fi
            """)
        let daemon = try await DaemonProcess(
            folder: folder,
            arguments: ["--on-finish", command, "--on-finish-retries", "3", "--on-finish-backoff", "0.05s"])

        // When a session is recorded to its end
        try recordFinishedSession("flaky", socket: folder.socket)

        // Then it failed twice, each logged with its status, error output and wait, and the third run succeeded
        await waitUntil("the command succeeded") {
            daemon.entries("hook.attempt").contains { $0["outcome"] as? String == "succeeded" }
        }
        let logged = attempts(daemon, of: "counter-flaky.jsonl")
        #expect(logged.map { $0["attempt"] as? Int } == [1, 2, 3])
        #expect(logged.map { $0["attempts"] as? Int } == [4, 4, 4])
        #expect(logged.map { $0["outcome"] as? String } == ["failed", "failed", "succeeded"])
        #expect(logged.map { $0["status"] as? Int } == [7, 7, nil])
        #expect(logged.map { $0["stderr"] as? String } == ["store unreachable (run 1)\n", "store unreachable (run 2)\n", nil])
        #expect(logged.map { $0["retryInSeconds"] as? Double } == [0.05, 0.1, nil])
        #expect(runs(in: folder).map(\.file) == ["counter-flaky.jsonl"])
        #expect(daemon.count("hook.gave_up") == 0)
        #expect(await daemon.stop() == 0)
    }

    @Test func aSessionWhoseCommandNeverSucceededIsHandedOverAgainAtTheNextStart() async throws {
        // Given a daemon whose command always fails, retried once
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let failing = try hookCommand(in: folder, prelude: #"echo "no network" >&2; exit 1"#)
        var daemon = try await DaemonProcess(
            folder: folder, arguments: ["--on-finish", failing, "--on-finish-retries", "1", "--on-finish-backoff", "0.05s"])

        // When a session is recorded to its end, and the command gives up on it
        try recordFinishedSession("stranded", socket: folder.socket)
        await waitUntil("the command gives up") { daemon.count("hook.gave_up") == 1 }
        #expect(attempts(daemon, of: "counter-stranded.jsonl").count == 2)
        #expect(await daemon.stop() == 0)

        // Then the next daemon, whose command works, hands it over at start, once
        let working = try hookCommand(in: folder)
        daemon = try await DaemonProcess(folder: folder, arguments: ["--on-finish", working], logName: "second.log")
        await waitUntil("the stranded session is handed over") { daemon.count("hook.attempt") == 1 }
        #expect(runs(in: folder).map(\.file) == ["counter-stranded.jsonl"])
        #expect(FileManager.default.fileExists(atPath: folder.sessions + "/.on-finish/counter-stranded.jsonl.done"))
        #expect(await daemon.stop() == 0)
    }

    @Test func aSlowCommandDoesNotHoldUpRecording() async throws {
        // Given a command that waits until the test releases it
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let command = try hookCommand(in: folder, prelude: #"while [ ! -e "$dir/release" ]; do sleep 0.02; done"#)
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--on-finish", command])

        // When a session ends and its command is still running
        try recordFinishedSession("slow", socket: folder.socket)
        await waitUntil("the first session has ended") { daemon.count("session.ended") == 1 }
        // (where the system shows threads' names, the thread that runs it is named apart from the workers; the
        // threads Foundation starts from it to watch the command take its name too)
        if ThreadNames.areReadable {
            let pid = daemon.process.processIdentifier
            await waitUntil("a thread named replayd hooks") {
                ThreadNames.count(inProcess: pid) { $0 == "replayd hooks" } >= 1
            }
        }

        // Then another whole session is stored meanwhile
        try recordFinishedSession("meanwhile", actions: 20, socket: folder.socket)
        await waitUntil("the second session is stored") { daemon.count("session.ended") == 2 }
        #expect(folder.lines(of: "counter-meanwhile.jsonl").count == 22)
        #expect(daemon.count("hook.attempt") == 0)

        // And once released, the command runs for both, in the order they ended
        #expect(FileManager.default.createFile(atPath: folder.path + "/release", contents: nil))
        await waitUntil("the command ran for both") { daemon.count("hook.attempt") == 2 }
        #expect(runs(in: folder).map(\.file) == ["counter-slow.jsonl", "counter-meanwhile.jsonl"])
        #expect(await daemon.stop() == 0)
    }
}

/// The object-store recipe of `docs/replayd.md`, run by the real replayd with a stand-in for `aws`.
@Suite struct ReplaydUploadRecipeTests {
    /// The recipe's script: the page's `sh` block that starts `#!/bin/sh` then `# replay-upload`.
    private func recipe() throws -> String {
        let page = try String(contentsOf: Executables.packageRoot.appendingPathComponent("docs/replayd.md"), encoding: .utf8)
        let start = try #require(page.range(of: "```sh\n#!/bin/sh\n# replay-upload"))
        let body = page[start.lowerBound...].dropFirst("```sh\n".count)
        return String(body[..<(try #require(body.range(of: "\n```\n"))).lowerBound]) + "\n"
    }

    /// Writes an executable file through `cp`, whose copy no forked child of this process can hold open for writing.
    private func install(_ text: String, at path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + ".draft"))
        let copy = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [path + ".draft", path])
        copy.waitUntilExit()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    @Test func theRecipeUploadsTheSessionAndItsIndexLineUnderAppStoreAndDay() async throws {
        // Given the recipe as --on-finish, and an `aws` that copies `s3://` keys into a folder
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bin = folder.path + "/bin"
        let bucket = folder.path + "/s3"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try install(
            """
            #!/bin/sh
            # aws s3 cp [--only-show-errors] SOURCE s3://BUCKET/KEY, into $FAKE_S3_ROOT/BUCKET/KEY
            [ "$1 $2" = "s3 cp" ] || { echo "unexpected: $*" >&2; exit 2; }
            shift 2
            [ "$1" = --only-show-errors ] && shift
            destination="$FAKE_S3_ROOT/${2#s3://}"
            mkdir -p "$(dirname "$destination")" && cp "$1" "$destination"
            """, at: bin + "/aws")
        try Data(try recipe().utf8).write(to: URL(fileURLWithPath: folder.path + "/replay-upload"))
        let daemon = try await DaemonProcess(
            folder: folder, arguments: ["--on-finish", "/bin/sh \(folder.path)/replay-upload s3://team-replays/sessions"],
            environment: ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "FAKE_S3_ROOT": bucket])

        // When a session of app "Tests", store "counter", started on 2026-11-22, is recorded to its end
        let client = try RawClient.startingSession("upload", socket: folder.socket)
        for sequence in 1...4 { try client.send(line: SessionLines.action(sequence)) }
        try client.send(line: SessionLines.end(actions: 4))
        client.close()

        // Then the session and its index line are in the bucket under app/store/day
        await waitUntil("the upload ran") { daemon.count("hook.attempt") == 1 }
        #expect(daemon.entries("hook.attempt").first?["outcome"] as? String == "succeeded", "\(daemon.log)")
        let key = bucket + "/team-replays/sessions/Tests/counter/2026-11-22/counter-upload.jsonl"
        #expect(FileManager.default.contents(atPath: key) == FileManager.default.contents(atPath: folder.sessions + "/counter-upload.jsonl"))
        let index = try String(contentsOfFile: key + ".index.ndjson", encoding: .utf8)
        #expect(index.hasSuffix("\n") && index.filter { $0 == "\n" }.count == 1)
        let line = try JSONSerialization.jsonObject(with: Data(index.utf8)) as? [String: Any]
        #expect(line?["file"] as? String == "counter-upload.jsonl")
        #expect(line?["actions"] as? Int == 4)
        #expect(line?["appName"] as? String == "Tests")
        #expect(await daemon.stop() == 0)
    }
}
