/// Whether replay reruns an effect against the inputs it recorded (see ``Effect/init(_:replay:handling:)``).
public enum EffectReplay: Sendable, Hashable {
    /// Replay never runs the effect: the actions it sent are fed back from the recording, and nothing it does is
    /// checked. The default, and the only safe choice for an effect that reaches the outside world without its
    /// ``EffectContext`` (a raw `URLSession` call would really happen during replay).
    case skipped
    /// Replay reruns the effect, hands back what each of its ``EffectContext/call(_:isolation:_:)`` calls, its
    /// ``EffectContext/clock`` and its UUIDs and random values gave in the recording, and compares the actions it
    /// sends with the recorded ones. The effect promises to take everything from outside through its context.
    case rerun
}
