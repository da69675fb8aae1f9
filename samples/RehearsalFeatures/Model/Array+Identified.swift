/// Access to the elements of an `Identifiable` array by id, as the features look them up.
extension Array where Element: Identifiable {
    /// The element with `id`; setting replaces it in place, and setting `nil` removes it.
    subscript(id id: Element.ID) -> Element? {
        get { first { $0.id == id } }
        set {
            guard let index = firstIndex(where: { $0.id == id }) else { return }
            if let newValue { self[index] = newValue } else { remove(at: index) }
        }
    }

    /// Moves the element at `source` so that it ends at `destination` (both clamped positions in the array);
    /// out-of-range sources change nothing.
    mutating func move(from source: Int, to destination: Int) {
        guard indices.contains(source) else { return }
        let element = remove(at: source)
        insert(element, at: Swift.min(Swift.max(destination, 0), count))
    }
}
