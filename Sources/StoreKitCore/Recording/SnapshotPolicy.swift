/// How a recorder stores the state after each action.
public enum SnapshotPolicy: Sendable, Hashable {
    /// Every line holds the full state: simplest to read with any JSON tool.
    case full
    /// Lines hold a JSON Patch against the previous state, with a full state (a keyframe) every
    /// `keyframeInterval` actions, after every gap or reconnect, and whenever the patch would be larger than the
    /// state. Sessions grow with what changed, not with the size of the state.
    case delta(keyframeInterval: Int)

    /// Delta snapshots with a keyframe every 100 actions.
    public static let delta = SnapshotPolicy.delta(keyframeInterval: 100)
}
