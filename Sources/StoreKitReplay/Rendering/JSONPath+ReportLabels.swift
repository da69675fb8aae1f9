import StoreKitJSON

/// The short forms of a path the HTML report shows where the whole path does not fit.
extension JSONPath {
    /// The end of the path that says what changed: the leaf and its nearest named parent (an object member, not an
    /// enum case's unlabelled payload), with the subscripts between them, a long subscript cut to its start, after
    /// `…` when the path goes on above them: `…rehearsal.elapsedInSong` for
    /// `path.entries[id: 2].element.rehearsal.elapsedInSong`, `todos[id: 3F2504E0…].isComplete` for
    /// `todos[id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301].isComplete`; the whole path when it has one named member
    /// or none.
    var leafAndNamedParent: String {
        if components.isEmpty { return description }
        let named = components.indices.filter(isNamedMember)
        let start = named.count >= 2 ? named[named.count - 2] : components.startIndex
        let text = Self.written(components[start...]) { component in
            let whole = JSONPath([component]).description
            guard whole.count > Self.longestSubscript, let colon = whole.firstIndex(of: " ") else { return whole }
            let value = whole[whole.index(after: colon)...].dropLast()
            return String(whole[...colon]) + String(value.prefix(Self.longestSubscript / 2)) + "…]"
        }
        return start > components.startIndex ? "…" + text : text
    }

    /// The path with every subscript written as `*`, so that the same member of different elements reads the same:
    /// `todos[id: *].isComplete` for `todos[id: 3].isComplete` and `todos[id: 7].isComplete`; `items[*]`,
    /// `counts[key: *]`, `tags[member: *]`.
    var withSubscriptsAsWildcards: String {
        if components.isEmpty { return description }
        return Self.written(components[...]) { component in
            switch component {
            case .identified: "[id: *]"
            case .mapKey: "[key: *]"
            case .setMember: "[member: *]"
            default: "[*]"
            }
        }
    }

    /// The subscript text (with its brackets) longer than which ``leafAndNamedParent`` cuts a subscript short.
    private static let longestSubscript = 16

    /// Whether the component at `index` is a member with a name: a key, but not the `_0`, `_1`… member under a
    /// case's name that holds its unlabelled payload.
    private func isNamedMember(_ index: Int) -> Bool {
        guard case .key(let key) = components[index] else { return false }
        guard index > components.startIndex, case .key = components[index - 1] else { return true }
        let digits = key.utf8.dropFirst()
        return !(key.utf8.first == UInt8(ascii: "_") && !digits.isEmpty && digits.allSatisfy { $0 &- 0x30 < 10 })
    }

    /// `components` written as ``description`` writes them, each run of members as the path of that run and each
    /// subscript (an index, an id, a map's key; never a member) as `subscriptText` gives it.
    private static func written(_ components: ArraySlice<Component>, subscriptText: (Component) -> String) -> String {
        var text = ""
        var members: [Component] = []
        func writeMembers() {
            guard !members.isEmpty else { return }
            let run = JSONPath(members).description
            text += text.isEmpty || run.hasPrefix("[") ? run : "." + run
            members = []
        }
        for component in components {
            if case .key = component {
                members.append(component)
            } else {
                writeMembers()
                text += subscriptText(component)
            }
        }
        writeMembers()
        return text
    }
}
