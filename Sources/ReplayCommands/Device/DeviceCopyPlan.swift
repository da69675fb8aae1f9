import StoreKitReplay

/// What `replay-cli pull` copies from a phone, checked before anything runs, and the `xcrun` arguments that copy it.
///
/// The values become separate arguments of one process (no shell ever sees them), and each is checked all the
/// same: a device or bundle identifier holds only the characters such identifiers are made of, and no value may
/// start with '-' (`devicectl` would read it as an option) or hold a line break or other control character.
struct DeviceCopyPlan: Equatable {
    /// Where in the app's container sessions are recorded unless the app says otherwise (`--from`).
    static let defaultSource = "Library/Caches/replay-sessions"

    /// The device's identifier (its UDID).
    let device: String
    /// The app's bundle identifier, which names its data container.
    let bundle: String
    /// The file or folder to copy, relative to the app's data container.
    let source: String
    /// The local folder `devicectl` copies into.
    let destination: String

    /// Checks the values.
    /// - Throws: ``CLIError`` of kind usage naming the option and what is wrong with its value.
    init(device: String, bundle: String, source: String = defaultSource, destination: String) throws(CLIError) {
        try Self.check(device, option: "--device", allowing: "letters, digits, '-', '.' and '_'") {
            $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0))
        }
        try Self.check(bundle, option: "--bundle", allowing: "letters, digits, '-' and '.'") {
            $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0))
        }
        try Self.check(source, option: "--from", allowing: nil) { _ in true }
        self.device = device
        self.bundle = bundle
        self.source = source
        self.destination = destination
    }

    /// `devicectl device copy from`, with the device, the app's data container, the source and the destination.
    var copyArguments: [String] {
        [
            "devicectl", "device", "copy", "from", "--device", device, "--domain-type", "appDataContainer",
            "--domain-identifier", bundle, "--source", source, "--destination", destination,
        ]
    }

    /// Refuses `value` when it is empty, starts with '-', holds a control character, or (when `allowing` names the
    /// characters that are) a character `isAllowed` refuses.
    private static func check(
        _ value: String, option: String, allowing: String?, isAllowed: (Character) -> Bool
    ) throws(CLIError) {
        let refusal = "refusing \(option) '\(value.escapingControls())'"
        guard !value.isEmpty else { throw CLIError(.usage, "\(option) needs a value") }
        let breaks: [Unicode.GeneralCategory] = [.control, .lineSeparator, .paragraphSeparator]
        if value.unicodeScalars.contains(where: { breaks.contains($0.properties.generalCategory) }) {
            throw CLIError(.usage, "\(refusal): it holds a line break or another control character")
        }
        if value.hasPrefix("-") {
            throw CLIError(.usage, "\(refusal): it starts with '-', which devicectl would read as an option")
        }
        if let allowing, let refused = value.first(where: { !isAllowed($0) }) {
            throw CLIError(.usage, "\(refusal): it holds '\(refused)', and it may hold only \(allowing)")
        }
    }
}
