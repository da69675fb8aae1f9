import Testing

@testable import ReplayCommands

/// The `xcrun` arguments `replay-cli pull` runs, and the values it refuses before running anything.
@Suite struct DeviceCopyPlanTests {
    static let udid = "00008030-001A35E11A88802E"

    @Test func theCopyArgumentsAreDevicectlsCopyFromTheAppsDataContainer() throws {
        let plan = try DeviceCopyPlan(device: Self.udid, bundle: "com.example.Todos", destination: "out/.replay-pull-1")
        #expect(
            plan.copyArguments == [
                "devicectl", "device", "copy", "from", "--device", "00008030-001A35E11A88802E", "--domain-type",
                "appDataContainer", "--domain-identifier", "com.example.Todos", "--source", "Library/Caches/replay-sessions",
                "--destination", "out/.replay-pull-1",
            ])
    }

    @Test func aSourceInTheContainerIsPassedAsOneArgumentWhateverItHolds() throws {
        let plan = try DeviceCopyPlan(
            device: "B2E4C9A1-7F3D-4E8A-9C61-2D5B8E0F1A37", bundle: "org.example.todo-app",
            source: "Documents/Bug reports/last $(session).jsonl", destination: "/tmp/p")
        #expect(
            plan.copyArguments == [
                "devicectl", "device", "copy", "from", "--device", "B2E4C9A1-7F3D-4E8A-9C61-2D5B8E0F1A37", "--domain-type",
                "appDataContainer", "--domain-identifier", "org.example.todo-app", "--source",
                "Documents/Bug reports/last $(session).jsonl", "--destination", "/tmp/p",
            ])
    }

    @Test(arguments: [
        (
            Self.udid + "\nrm -rf ~", "com.example.Todos",
            "refusing --device '00008030-001A35E11A88802E\\nrm -rf ~': it holds a line break or another control character"
        ),
        ("--all", "com.example.Todos", "refusing --device '--all': it starts with '-', which devicectl would read as an option"),
        (
            Self.udid + ";reboot", "com.example.Todos",
            "refusing --device '00008030-001A35E11A88802E;reboot': it holds ';', and it may hold only letters, digits, "
                + "'-', '.' and '_'"
        ),
        (
            Self.udid, "com.example.Todos`id`",
            "refusing --bundle 'com.example.Todos`id`': it holds '`', and it may hold only letters, digits, '-' and '.'"
        ),
        (
            Self.udid, "com.example.$HOME",
            "refusing --bundle 'com.example.$HOME': it holds '$', and it may hold only letters, digits, '-' and '.'"
        ),
        (
            Self.udid, "-com.example.Todos",
            "refusing --bundle '-com.example.Todos': it starts with '-', which devicectl would read as an option"
        ),
        (
            Self.udid, "com.example.Todos\r",
            "refusing --bundle 'com.example.Todos\\r': it holds a line break or another control character"
        ),
        (
            Self.udid, "com.exämple.Todos",
            "refusing --bundle 'com.exämple.Todos': it holds 'ä', and it may hold only letters, digits, '-' and '.'"
        ),
    ])
    func aDeviceOrBundleThatIsNotAPlainIdentifierIsRefused(device: String, bundle: String, message: String) {
        #expect {
            try DeviceCopyPlan(device: device, bundle: bundle, destination: "/tmp/p")
        } throws: { error in
            let error = error as? CLIError
            return error?.kind == .usage && error?.message == message
        }
    }

    @Test(arguments: [
        ("-rf", "refusing --from '-rf': it starts with '-', which devicectl would read as an option"),
        ("Library/a\nb", "refusing --from 'Library/a\\nb': it holds a line break or another control character"),
        ("Library/a\u{2028}b", "refusing --from 'Library/a\\u2028b': it holds a line break or another control character"),
    ])
    func aSourceThatCouldBeReadAsAnOptionOrHoldsALineBreakIsRefused(source: String, message: String) {
        #expect {
            try DeviceCopyPlan(device: Self.udid, bundle: "com.example.Todos", source: source, destination: "/tmp/p")
        } throws: { error in
            (error as? CLIError)?.message == message
        }
    }
}
