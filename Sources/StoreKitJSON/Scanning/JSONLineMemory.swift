import StoreKitSystem

/// What ``JSONLineScanner`` remembers of the last valid line of one stream of lines, so that a nested object or
/// array of the next line whose bytes are the very same as one already checked needs no second check.
///
/// Consecutive lines of a session are mostly alike: each carries the whole state, and an action changes a little of
/// it. The scanner notes where each nested container of a valid line began and ended, and at which depth. In the
/// next line, a container at the corresponding place is compared byte for byte with the remembered one; when they
/// are equal it is that same valid JSON at the same depth, and the scan goes on after it. Otherwise it is scanned as
/// usual. The verdict is the same as a scan without memory; only the work differs.
///
/// The places correspond through an offset between the lines, taken from each top-level member and corrected after
/// each container that had a counterpart but changed. A budget bounds the bytes compared per line to a few times
/// the line's length, so lines that differ everywhere cost little more than without memory.
///
/// Most lines differ from the one before only in a few strings and numbers (a counter, a time, a field an action
/// set). Before that scan, the next line is compared with the remembered one as a whole: where they differ, the
/// difference must start within a remembered value that is a string, number, `true`, `false` or `null`, not a key;
/// that value is scanned anew in the next line, and the comparison goes on after both. A line that is the
/// remembered one with only such values replaced, each valid, has the same containers, keys and depths, so it is
/// valid too, and only its replaced values were scanned. Any other difference (a key, a bracket, a comma,
/// whitespace, or one line ending before the other) leaves the line to the scan above.
///
/// Use one memory per stream (one client, one session): lines of other streams would rarely match.
package final class JSONLineMemory {
    /// What is remembered, in storage of its own that the scan reaches through one pointer, with no
    /// copy-on-write or exclusivity checks per container.
    let contents: UnsafeMutablePointer<Contents>

    /// Creates an empty memory.
    package init() {
        contents = .allocate(capacity: 1)
        contents.initialize(to: Contents())
    }

    deinit {
        contents.pointee.deallocate()
        contents.deinitialize(count: 1)
        contents.deallocate()
    }
}

extension JSONLineMemory {
    /// A nested container of a line: the offsets of its first byte and just past its last, and its depth.
    struct Container {
        var start: Int
        var end: Int
        var depth: Int
    }

    /// A value of a line that is a string, number, `true`, `false` or `null`, not a key: the offsets of its first
    /// byte and just past its last.
    struct Scalar {
        var start: Int
        var end: Int
    }

    /// A top-level member of a line, as offsets: its key's content and its value.
    struct MemberPlace {
        var keyStart: Int
        var keyEnd: Int
        var valueStart: Int
        var valueEnd: Int
        var type: JSONLineScanner.ValueType
    }

    /// A scalar of the remembered line that the next line replaces: where it was, where the new one is, and the
    /// new one's type.
    struct Replacement {
        var old: Scalar
        var new: Scalar
        var type: JSONLineScanner.ValueType
    }

    /// The remembered line and the bookkeeping of the scan of the next one.
    struct Contents {
        /// The last valid line.
        private(set) var line = GrowingBuffer<UInt8>()
        /// The offset just past its closing `}`; 0 before the first valid line.
        private(set) var lineEnd = 0
        /// The deepest nesting its scanner accepted.
        private(set) var maxDepth = 0
        /// Its nested containers, in the order they open.
        private(set) var containers = GrowingBuffer<Container>()
        /// Its scalars, in order.
        private(set) var scalars = GrowingBuffer<Scalar>()
        /// For each 64 bytes of it, the first of ``scalars`` that ends there or later: where the search for the
        /// scalar a difference falls in starts.
        private(set) var scalarsByBlock = GrowingBuffer<Int>()
        /// Its top-level members, in order.
        private(set) var members = GrowingBuffer<MemberPlace>()
        /// The containers of the line being scanned, in the order they open.
        private var scanning = GrowingBuffer<Container>()
        /// The scalars of the line being scanned, in order.
        private var scanningScalars = GrowingBuffer<Scalar>()
        /// The remembered line's scalars that the line being compared replaces, in order.
        var replacements = GrowingBuffer<Replacement>()
        /// The remembered line's offset minus the scanned line's, at the place being scanned.
        private var shift = 0
        /// How many more bytes this line may compare.
        private var budget = 0
        /// Where the search of ``containers`` for the next place starts: places mostly come in order.
        private var searchFrom = 0

        /// Frees the storage.
        mutating func deallocate() {
            line.deallocate()
            containers.deallocate()
            scalars.deallocate()
            scalarsByBlock.deallocate()
            members.deallocate()
            scanning.deallocate()
            scanningScalars.deallocate()
            replacements.deallocate()
        }

        /// Prepares for the scan of a line of `length` bytes.
        mutating func begin(lineLength length: Int) {
            scanning.count = 0
            scanningScalars.count = 0
            replacements.count = 0
            shift = 0
            searchFrom = 0
            budget = 4 * length + 4096
        }

        /// Keeps `line`, just found valid by a scan with at most `maxDepth` levels, its closing `}` just before
        /// `end`, with the containers and scalars noted while scanning it.
        mutating func commit(_ line: UnsafeBufferPointer<UInt8>, end: Int, maxDepth: Int, members: [JSONLineScanner.Member]) {
            keep(line, end: end, maxDepth: maxDepth)
            self.members.count = 0
            for member in members {
                self.members.append(
                    MemberPlace(
                        keyStart: member.key.lowerBound, keyEnd: member.key.upperBound,
                        valueStart: member.value.lowerBound, valueEnd: member.value.upperBound, type: member.type))
            }
        }

        /// Keeps `line`'s bytes up to `end`, just past its closing `}`, and the scan's depth limit, with the
        /// containers and scalars noted for it.
        private mutating func keep(_ line: UnsafeBufferPointer<UInt8>, end: Int, maxDepth: Int) {
            self.line.count = 0
            self.line.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<end]))
            lineEnd = end
            self.maxDepth = maxDepth
            swap(&containers, &scanning)
            swap(&scalars, &scanningScalars)
            scalarsByBlock.count = 0
            indexScalarsByBlock(from: 0)
        }

        /// Fills ``scalarsByBlock`` past its first `count` entries, which stay, for the blocks of the line, the
        /// search starting at scalar `first`.
        private mutating func indexScalarsByBlock(from first: Int) {
            let blocks = (lineEnd + 63) &>> 6
            scalarsByBlock.count = min(scalarsByBlock.count, blocks)
            var index = first
            for block in scalarsByBlock.count..<blocks {
                while index < scalars.count && scalars.storage[index].end < block &<< 6 { index += 1 }
                scalarsByBlock.append(index)
            }
        }

        /// Keeps `line`, the remembered one with only the scalars in ``replacements`` replaced, as the comparison
        /// found it: every remembered place moves by the change in length of the replacements before it, so only
        /// places after one of another length move.
        /// - Returns: The top-level members whose values were replaced, bit `i` for member `i`; `nil` when the line
        ///   has more than 64.
        mutating func commitReplacing(_ line: UnsafeBufferPointer<UInt8>, end: Int) -> UInt64? {
            let replaced = UnsafeBufferPointer(start: replacements.storage, count: replacements.count)
            // A member whose value was replaced takes the replacement's type; both are in order, walked together.
            var replacedMembers: UInt64 = 0
            var next = 0
            for index in 0..<members.count {
                let valueStart = members.storage[index].valueStart
                while next < replaced.count && replaced[next].old.start < valueStart { next += 1 }
                guard next < replaced.count else { break }
                if replaced[next].old.start == valueStart {
                    members.storage[index].type = replaced[next].type
                    replacedMembers |= 1 &<< UInt64(truncatingIfNeeded: index)
                }
            }
            let replacedMemberBits = members.count <= 64 ? replacedMembers : nil
            guard let firstMove = replaced.firstIndex(where: { $0.new.end - $0.new.start != $0.old.end - $0.old.start })
            else {
                // Nothing moved, and only the replaced bytes changed.
                for replacement in replaced {
                    (self.line.storage + replacement.new.start).update(
                        from: line.baseAddress! + replacement.new.start, count: replacement.new.end - replacement.new.start)
                }
                return replacedMemberBits
            }
            let moving = UnsafeBufferPointer(rebasing: replaced[firstMove...])
            let threshold = moving[0].old.start
            let firstMoved = JSONLineMemory.firstPlace(
                atOrAfter: threshold, in: scalars.storage, count: scalars.count, \.start)
            for index in firstMoved..<scalars.count {
                let scalar = scalars.storage[index]
                if let replacement = Self.replacement(of: scalar.start, in: moving) {
                    scalars.storage[index] = replacement.new
                } else {
                    let distance = Self.distance(at: scalar.start, in: moving)
                    scalars.storage[index] = Scalar(start: scalar.start + distance, end: scalar.end + distance)
                }
            }
            for index in 0..<containers.count where containers.storage[index].end > threshold {
                containers.storage[index].end += Self.distance(at: containers.storage[index].end, in: moving)
                if containers.storage[index].start > threshold {
                    containers.storage[index].start += Self.distance(at: containers.storage[index].start, in: moving)
                }
            }
            for index in 0..<members.count where members.storage[index].valueEnd > threshold {
                var member = members.storage[index]
                if let replacement = Self.replacement(of: member.valueStart, in: moving) {
                    (member.valueStart, member.valueEnd) = (replacement.new.start, replacement.new.end)
                } else {
                    member.valueStart += Self.distance(at: member.valueStart, in: moving)
                    member.valueEnd += Self.distance(at: member.valueEnd, in: moving)
                }
                member.keyStart += Self.distance(at: member.keyStart, in: moving)
                member.keyEnd += Self.distance(at: member.keyEnd, in: moving)
                members.storage[index] = member
            }
            self.line.count = 0
            self.line.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<end]))
            lineEnd = end
            // The blocks up to the one holding the first place that moved keep their first scalar: a place before
            // it did not move, and one after it starts after that place. Later blocks start their search there.
            scalarsByBlock.count = min(scalarsByBlock.count, threshold &>> 6 + 1)
            indexScalarsByBlock(from: firstMoved)
            return replacedMemberBits
        }

        /// How far a place at `offset` in the remembered line, outside the replaced scalars, moves: as far as the
        /// end of the last of `replaced` (in order) before it.
        @inline(__always)
        private static func distance(at offset: Int, in replaced: UnsafeBufferPointer<Replacement>) -> Int {
            // The replacements before it end at or before it.
            let low = JSONLineMemory.firstPlace(
                atOrAfter: offset + 1, in: replaced.baseAddress!, count: replaced.count, \.old.end)
            return low == 0 ? 0 : replaced[low - 1].new.end - replaced[low - 1].old.end
        }

        /// The replacement, among `replaced` (in order), of the scalar at `offset` in the remembered line, if any.
        @inline(__always)
        private static func replacement(
            of offset: Int, in replaced: UnsafeBufferPointer<Replacement>
        ) -> Replacement? {
            let index = JSONLineMemory.firstPlace(
                atOrAfter: offset, in: replaced.baseAddress!, count: replaced.count, \.old.start)
            return index < replaced.count && replaced[index].old.start == offset ? replaced[index] : nil
        }

        /// Lines up the places of the two lines at the value of top-level member `index`, at `offset` in the line.
        @inline(__always)
        mutating func alignMember(_ index: Int, valueAt offset: Int) {
            if index < members.count { shift = members.storage[index].valueStart - offset }
        }

        /// Notes a scalar of the line being scanned, from `start` to `end`.
        @inline(__always)
        mutating func noteScalar(start: Int, end: Int) {
            scanningScalars.append(Scalar(start: start, end: end))
        }

        /// The end of the container opening at `offset` (at `position` in memory, with `available` bytes up to
        /// the line's end) when it is byte for byte a remembered container of the same depth at the corresponding
        /// place, noting it as scanned; else `nil`, with the remembered container at that place, if any, in
        /// `counterpart` for ``scanned(_:endingAt:counterpart:)``.
        @inline(__always)
        mutating func recall(
            at offset: Int, position: UnsafePointer<UInt8>, available: Int, depth: Int, counterpart: inout Int?
        ) -> UnsafePointer<UInt8>? {
            let target = offset + shift
            var index = searchFrom
            let remembered = containers.storage
            if index > 0 && remembered[index - 1].start >= target { index = 0 }
            while index < containers.count && remembered[index].start < target { index += 1 }
            searchFrom = index
            guard index < containers.count, remembered[index].start == target, remembered[index].depth == depth else {
                return nil
            }
            counterpart = index
            let length = remembered[index].end - target
            // Compare within the line only. One that would end on the line's closing `}` is turned away by the
            // scan, as a scanned one would be.
            guard length <= available, length <= budget else { return nil }
            budget -= length
            // The last 8 bytes first: a container that changed near its end (a counter kept last) fails at once.
            let bytes = line.storage + target
            if length >= 8 {
                let tail = length - 8
                guard UnsafeRawPointer(bytes + tail).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(position + tail).loadUnaligned(as: UInt64.self)
                else { return nil }
            }
            guard memcmp(bytes, position, length) == 0 else { return nil }
            scanning.append(Container(start: offset, end: offset + length, depth: depth))
            noteScalars(from: target, to: target + length, movedBy: -shift)
            return position + length
        }

        /// Notes the remembered scalars between the two offsets, moved by `distance`, as the line being scanned's.
        private mutating func noteScalars(from start: Int, to end: Int, movedBy distance: Int) {
            var low = JSONLineMemory.firstPlace(atOrAfter: start, in: scalars.storage, count: scalars.count, \.start)
            while low < scalars.count && scalars.storage[low].start < end {
                let scalar = scalars.storage[low]
                scanningScalars.append(Scalar(start: scalar.start + distance, end: scalar.end + distance))
                low += 1
            }
        }

        /// Notes that a container at `offset` and `depth` is about to be scanned; returns its number for
        /// ``scanned(_:endingAt:counterpart:)``.
        @inline(__always)
        mutating func willScan(at offset: Int, depth: Int) -> Int {
            scanning.append(Container(start: offset, end: offset, depth: depth))
            return scanning.count - 1
        }

        /// Notes where scanned container `number` ended; when it had a remembered counterpart, lines the places up
        /// again after both.
        @inline(__always)
        mutating func scanned(_ number: Int, endingAt end: Int, counterpart: Int?) {
            scanning.storage[number].end = end
            if let counterpart { shift = containers.storage[counterpart].end - end }
        }
    }

    /// The first of `count` places in order whose offset (`key`) is at or after `offset`; `count` if none.
    @inline(__always)
    static func firstPlace<Place>(
        atOrAfter offset: Int, in places: UnsafePointer<Place>, count: Int, _ key: KeyPath<Place, Int>
    ) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) &>> 1
            if places[middle][keyPath: key] < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A growable run of plain values in storage of its own, for ``Contents``: no copy-on-write or exclusivity
    /// checks.
    struct GrowingBuffer<Element: BitwiseCopyable> {
        /// The values' storage.
        private(set) var storage: UnsafeMutablePointer<Element> = .allocate(capacity: 16)
        /// How many values it holds.
        var count = 0
        private var capacity = 16

        /// Makes room for `extra` more values.
        mutating func reserve(_ extra: Int) {
            guard count + extra > capacity else { return }
            capacity = max(count + extra, 2 * capacity)
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
        }

        /// Adds a value.
        @inline(__always)
        mutating func append(_ value: Element) {
            if count == capacity { reserve(1) }
            (storage + count).initialize(to: value)
            count += 1
        }

        /// Adds `values`.
        mutating func append(contentsOf values: UnsafeBufferPointer<Element>) {
            reserve(values.count)
            if let base = values.baseAddress {
                UnsafeMutableRawPointer(storage + count).copyMemory(
                    from: base, byteCount: values.count * MemoryLayout<Element>.stride)
            }
            count += values.count
        }

        /// Frees the storage; the values are plain, so nothing else is owed.
        mutating func deallocate() {
            storage.deallocate()
        }
    }
}
