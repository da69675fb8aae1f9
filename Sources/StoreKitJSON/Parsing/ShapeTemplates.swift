import StoreKitSystem

/// The dictionaries that objects of each shape start as (``ObjectShape/template``), shared by every parser in the
/// process.
///
/// Copies of one dictionary keep its members in one order, while two dictionaries built apart with the same keys
/// order them differently: each storage seeds its own hashing. Objects that all parsers build from one template
/// list their members in one order, so that ``JSONValue``'s `==` finds each member of one in the other at the
/// first look, as when two states parsed on two threads are compared.
enum ShapeTemplates {
    /// A template and where each key lies in it, in the order of the keys it was made for.
    struct Template: Sendable {
        /// A dictionary with every key, each value `null`.
        let members: [String: JSONValue]
        /// The index of each key in ``members``.
        let indices: [Dictionary<String, JSONValue>.Index]
    }

    /// The most keys the kept templates hold together, so that what a process keeps for the life of it stays
    /// small whatever shapes its input has (a hostile line may have thousands of keys); a shape beyond that bound
    /// gets a template of its own, as does one with more than ``largestSharedShape`` keys.
    private static let keyCapacity = 16_384
    /// The most keys of a shape whose template is kept.
    private static let largestSharedShape = 64

    /// The kept templates, and how many keys they hold together.
    private static let templates = Locked<(byKeys: [ShapeKeys: Template], keyCount: Int)>(([:], 0))

    /// The template for objects with `keys`, in that order: the one made before for those keys, if any.
    static func template(for keys: [ShortKey]) -> Template {
        guard keys.count <= largestSharedShape else { return makeTemplate(for: keys) }
        let shapeKeys = ShapeKeys(keys: keys)
        return templates.withLock { templates in
            if let template = templates.byKeys[shapeKeys] { return template }
            let template = makeTemplate(for: keys)
            if templates.keyCount + keys.count <= keyCapacity {
                templates.byKeys[shapeKeys] = template
                templates.keyCount += keys.count
            }
            return template
        }
    }

    private static func makeTemplate(for keys: [ShortKey]) -> Template {
        let strings = keys.map(\.string)
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(keys.count)
        for key in strings { members[key] = .null }
        return Template(members: members, indices: strings.compactMap { members.index(forKey: $0) })
    }
}

/// An object shape's keys, in order, as a dictionary key.
private struct ShapeKeys: Hashable {
    let keys: [ShortKey]

    func hash(into hasher: inout Hasher) {
        for key in keys {
            hasher.combine(key.low)
            hasher.combine(key.high)
            hasher.combine(key.length)
        }
    }
}
