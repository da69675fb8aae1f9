extension CanonicalByteWriter {
    /// The generalised paths the writer met while noting, as a tree of places, each with the kinds already noted
    /// at it, so that noting a place again (the same member of every element of an array, the same place in the
    /// next state) costs a few lookups instead of building its path and hashing it into ``EncodedTypeNotes``.
    ///
    /// A place is an index into the tree; ``root`` is the place of the whole value. A place's path is only built
    /// when a kind is first noted at it. A place that holds arrays of `Identifiable` elements also keeps the search
    /// for the member that holds their id (``IdentityMemberSearch``) until it ends.
    struct NotedPlaces {
        /// One place: the step from its parent, the places below it, and the kinds noted at it.
        private struct Place {
            let parent: Int
            let step: EncodedTypeNotes.Step
            var members: [String: Int] = [:]
            /// The members looked up last, up to ``recentMembersKept``: the next object of the same type asks for
            /// the same few again (a date and a set in every element of an array), found without hashing their keys.
            var recentMembers: [(key: String, place: Int)] = []
            /// Where the next member looked up replaces one in ``recentMembers`` once it is full.
            var nextRecent = 0
            var element = -1
            var pairValue = -1
            var notedKinds: UInt8 = 0
        }

        /// The place of the whole value.
        static let root = 0
        /// How many of the members looked up last a place keeps.
        private static let recentMembersKept = 4

        /// The places, the root first (its step is never read: a path ends at the root).
        private var places = [Place(parent: -1, step: .element)]
        /// The searches for an identity member still under way, by place.
        private var identitySearches: [Int: IdentityMemberSearch] = [:]

        /// The place one `step` below `place`, added if new.
        mutating func child(of place: Int, _ step: EncodedTypeNotes.Step) -> Int {
            switch step {
            case .member(let key):
                for recent in places[place].recentMembers where recent.key == key { return recent.place }
                let child: Int
                if let known = places[place].members[key] {
                    child = known
                } else {
                    child = add(step, below: place)
                    places[place].members[key] = child
                }
                remember(key, child, below: place)
                return child
            case .element:
                if places[place].element >= 0 { return places[place].element }
                let child = add(step, below: place)
                places[place].element = child
                return child
            case .pairValue:
                if places[place].pairValue >= 0 { return places[place].pairValue }
                let child = add(step, below: place)
                places[place].pairValue = child
                return child
            }
        }

        /// Keeps `key` and its place among the members of `place` looked up last.
        private mutating func remember(_ key: String, _ child: Int, below place: Int) {
            if places[place].recentMembers.count < Self.recentMembersKept {
                places[place].recentMembers.append((key, child))
            } else {
                places[place].recentMembers[places[place].nextRecent] = (key, child)
                places[place].nextRecent = (places[place].nextRecent + 1) % Self.recentMembersKept
            }
        }

        private mutating func add(_ step: EncodedTypeNotes.Step, below parent: Int) -> Int {
            places.append(Place(parent: parent, step: step))
            return places.count - 1
        }

        /// Marks `kind` as noted at `place`; returns the place's path when it was not noted there before, `nil`
        /// when it was.
        mutating func markNoted(_ kind: EncodedTypeNotes.Kind, at place: Int) -> [EncodedTypeNotes.Step]? {
            let bit = Self.bit(of: kind)
            guard places[place].notedKinds & bit == 0 else { return nil }
            places[place].notedKinds |= bit
            return path(of: place)
        }

        /// Whether the search for the identity member of the arrays at `place` has ended.
        func identitySearchEnded(at place: Int) -> Bool {
            places[place].notedKinds & Self.identitySearchEndedBit != 0
        }

        /// Narrows the search for the identity member of the arrays at `place` with `element` (see
        /// ``IdentityMemberSearch``); returns the place's path and the member when it ended with one to note.
        mutating func examine<Element: Encodable>(
            _ element: Element, encoded: JSONValue, inArrayAt place: Int
        ) -> (path: [EncodedTypeNotes.Step], member: String)? {
            let outcome = IdentityMemberSearch.examine(element, encoded: encoded, at: place, in: &identitySearches)
            guard case .ended(let member) = outcome else { return nil }
            places[place].notedKinds |= Self.identitySearchEndedBit
            return member.map { (path(of: place), $0) }
        }

        /// The generalised path from the root to `place`.
        private func path(of place: Int) -> [EncodedTypeNotes.Step] {
            var path: [EncodedTypeNotes.Step] = []
            var step = place
            while step != Self.root {
                path.append(places[step].step)
                step = places[step].parent
            }
            return path.reversed()
        }

        /// The bit of ``Place/notedKinds`` set once the search for an identity member at the place ended.
        private static let identitySearchEndedBit: UInt8 = 8

        private static func bit(of kind: EncodedTypeNotes.Kind) -> UInt8 {
            switch kind {
            case .keyedPairArrays: 1
            case .dates: 2
            case .durations: 4
            case .sets: 16
            }
        }
    }
}
