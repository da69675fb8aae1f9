extension Store {
    /// Starts recording this store's session: reads the current state and registers a ``SessionRecorder`` in one
    /// step, so no action slips in between. A store with replayable effects (``EffectReplay/rerun``) is recorded in
    /// format 2, with the inputs its effects take; the header names the replayable effects registered by now.
    ///
    /// ```swift
    /// let recorder = store.startRecording(.init(storeID: "todos", app: AppInfo(name: "TodoApp")),
    ///                                     to: FileTransport(path: "/tmp/todos.jsonl"))
    /// ```
    /// - Parameters:
    ///   - configuration: The session's names and bounds.
    ///   - transport: Where the session goes.
    /// - Returns: The recorder; call ``SessionRecorder/finish(reason:timeout:)`` when the session is over.
    @discardableResult
    public func startRecording(
        _ configuration: SessionRecorder<State, Action>.Configuration, to transport: any SessionTransport
    ) -> SessionRecorder<State, Action> {
        register { currentState in
            SessionRecorder(
                initialState: currentState, transport: transport, configuration: configuration,
                storeClockOrigin: createdAt, replayableEffects: replayableEffectNames)
        }
    }
}
