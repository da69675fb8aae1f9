/// A stack on raw memory for the byte writer's hot loops: pushing, popping and changing the top element pay
/// neither copy-on-write uniqueness checks nor dynamic exclusivity checks.
final class WriterStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements are on the stack.
    private(set) var count = 0

    /// Creates an empty stack with room for `capacity` elements before it grows.
    init(capacity: Int = 32) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The element at `index` (from the bottom, 0-based), in place.
    @inline(__always)
    func pointer(at index: Int) -> UnsafeMutablePointer<Element> {
        assert(index >= 0 && index < count)
        return base + index
    }

    /// The top element, in place; the stack must not be empty.
    @inline(__always)
    var top: UnsafeMutablePointer<Element> { pointer(at: count - 1) }

    /// Pushes `element`.
    @inline(__always)
    func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    private func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }

    /// Removes and returns the top element; the stack must not be empty.
    @inline(__always)
    func pop() -> Element {
        count -= 1
        return (base + count).move()
    }

    /// Removes the elements above the first `newCount`.
    @inline(__always)
    func truncate(to newCount: Int) {
        assert(newCount <= count)
        (base + newCount).deinitialize(count: count - newCount)
        count = newCount
    }

    /// Calls `body` with the elements from `index` to the top, bottom first.
    func withElements<Result>(from index: Int, _ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base + index, count: count - index))
    }
}
