/// A store's interceptors in registration order, as a chain of links the store walks on every dispatch.
///
/// A store is generic over the app's types, and its code runs unspecialized in the app: walking an array of
/// `any Interceptor<State, Action>` asks the Swift runtime for that array's metadata on every dispatch, a lookup in
/// a cache whose reader count the recorder's background thread updates too, so the two threads contend for it. A link
/// holds its interceptor in a field the compiler lays out itself: walking the chain asks the runtime for nothing.
final class InterceptorChain<State, Action> {
    /// The interceptor this link holds.
    let interceptor: any Interceptor<State, Action>
    /// The link of the interceptor registered after this one, if any.
    let next: InterceptorChain?

    private init(_ interceptor: any Interceptor<State, Action>, next: InterceptorChain?) {
        self.interceptor = interceptor
        self.next = next
    }

    /// The chain `chain` (or none) with `interceptor` added at its end.
    static func appending(_ interceptor: any Interceptor<State, Action>, to chain: InterceptorChain?) -> InterceptorChain {
        guard let chain else { return InterceptorChain(interceptor, next: nil) }
        return InterceptorChain(chain.interceptor, next: appending(interceptor, to: chain.next))
    }
}
