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

    /// The remembered line and the bookkeeping of the scan of the next one.
    struct Contents {
        /// The last valid line.
        private var line = GrowingBuffer<UInt8>()
        /// Its nested containers, in the order they open.
        private var containers = GrowingBuffer<Container>()
        /// Where its top-level members' values begin.
        private var memberValues = GrowingBuffer<Int>()
        /// The containers of the line being scanned, in the order they open.
        private var scanning = GrowingBuffer<Container>()
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
            memberValues.deallocate()
            scanning.deallocate()
        }

        /// Prepares for the scan of a line of `length` bytes.
        mutating func begin(lineLength length: Int) {
            scanning.count = 0
            shift = 0
            searchFrom = 0
            budget = 4 * length + 4096
        }

        /// Keeps `line`, just found valid, with the containers noted while scanning it.
        mutating func commit(_ line: UnsafeBufferPointer<UInt8>, members: [JSONLineScanner.Member]) {
            self.line.count = 0
            self.line.append(contentsOf: line)
            swap(&containers, &scanning)
            memberValues.count = 0
            for member in members { memberValues.append(member.value.lowerBound) }
        }

        /// Lines up the places of the two lines at the value of top-level member `index`, at `offset` in the line.
        @inline(__always)
        mutating func alignMember(_ index: Int, valueAt offset: Int) {
            if index < memberValues.count { shift = memberValues.storage[index] - offset }
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
            return position + length
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
            if let base = values.baseAddress { (storage + count).initialize(from: base, count: values.count) }
            count += values.count
        }

        /// Frees the storage; the values are plain, so nothing else is owed.
        mutating func deallocate() {
            storage.deallocate()
        }
    }
}
