/// A store's interceptors or observers in the order they were added, as immutable links the store walks on every
/// dispatch.
///
/// A store is generic over the app's types, and its code runs unspecialized in the app: walking an array of
/// `any Interceptor<State, Action>` or a dictionary of closures over the state asks the Swift runtime for that
/// collection's metadata on every dispatch, a lookup in a cache whose reader count the recorder's background thread
/// updates too, so the two threads contend for it. A link holds its element in a field whose offset the link's own
/// class metadata gives: walking the chain asks the runtime for nothing. Adding and removing build a new chain.
final class Chain<Element> {
    /// The number the store gave this element, to remove it by.
    let id: UInt64
    /// The interceptor or observer this link holds.
    let element: Element
    /// The link of the element added after this one, if any.
    let next: Chain?

    private init(id: UInt64, element: Element, next: Chain?) {
        self.id = id
        self.element = element
        self.next = next
    }

    /// The chain `chain` (or none) with `element`, numbered `id`, added at its end.
    static func appending(_ element: Element, id: UInt64, to chain: Chain?) -> Chain {
        guard let chain else { return Chain(id: id, element: element, next: nil) }
        return Chain(id: chain.id, element: chain.element, next: appending(element, id: id, to: chain.next))
    }

    /// The chain `chain` without the element numbered `id`; `nil` when none is left.
    static func removing(id: UInt64, from chain: Chain?) -> Chain? {
        guard let chain else { return nil }
        if chain.id == id { return chain.next }
        return Chain(id: chain.id, element: chain.element, next: removing(id: id, from: chain.next))
    }
}
