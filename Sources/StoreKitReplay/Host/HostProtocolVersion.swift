/// The `protocol` field of the replay-host protocol, as both ends write and read it: written as
/// ``ReplayHost/protocolVersion``, and read only when it is that number (any other is
/// ``HostProtocolError/Problem/unsupportedVersion(_:)``).
package struct HostProtocolVersion: Codable, Sendable, Equatable {
    /// The version this library speaks.
    package init() {}

    /// Reads the version, which must be ``ReplayHost/protocolVersion``.
    /// - Throws: ``HostProtocolError/Problem/unsupportedVersion(_:)`` for any other value.
    package init(from decoder: any Decoder) throws {
        let version = try? decoder.singleValueContainer().decode(Int.self)
        guard version == ReplayHost.protocolVersion else { throw HostProtocolError.Problem.unsupportedVersion(version) }
    }

    /// Reads the version from `container`'s `key`, which must be present and ``ReplayHost/protocolVersion``.
    /// - Throws: ``HostProtocolError/Problem/unsupportedVersion(_:)`` when it is missing or another number.
    package init<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws {
        guard let version = try container.decodeIfPresent(HostProtocolVersion.self, forKey: key) else {
            throw HostProtocolError.Problem.unsupportedVersion(nil)
        }
        self = version
    }

    /// Writes ``ReplayHost/protocolVersion``.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ReplayHost.protocolVersion)
    }
}
