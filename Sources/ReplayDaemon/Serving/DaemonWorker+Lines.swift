import StoreKitCore
import StoreKitJSON
import StoreKitReplay

extension DaemonWorker {
    /// Checks one framed line and queues it for the session file, or rejects it.
    func handle(_ line: LineFramer.Line, number: Int, on connection: ClientConnection) {
        guard !connection.isClosing else { return }
        let terminated: UnsafeBufferPointer<UInt8>
        switch line {
        case .tooLong(let count):
            reject(connection, line: number, reason: "line is \(count) bytes, over the limit of \(options.maxLineBytes)")
            refuseIfFirst(connection)
            return
        case .complete(let complete):
            terminated = complete
        }
        let bytes = UnsafeBufferPointer(rebasing: terminated.dropLast())
        let checked: SessionLineValidator.Checked
        switch validator.check(bytes, memory: connection.lineMemory) {
        case .failure(let rejection):
            reject(connection, line: number, reason: rejection.reason)
            refuseIfFirst(connection)
            return
        case .success(let success):
            checked = success
        }
        guard let session = connection.session else {
            startSession(checked, headerLine: UnsafeRawBufferPointer(terminated), line: number, on: connection)
            return
        }
        switch session.accept(checked) {
        case .refused(let problem):
            reject(connection, line: number, reason: problem)
        case .accepted(let missing):
            if let missing {
                let gap = GapEvent(filling: missing, before: checked, rejectedLines: connection.rejectedSinceStored)
                accepted.append(ownedLine: SessionEvent.gap(gap).line)
            }
            accepted.append(terminated)
            connection.storedLines += 1
            connection.rejectedSinceStored = 0
        }
    }

    /// Opens (or continues) the session a header names and welcomes the client; refuses anything else.
    private func startSession(
        _ checked: SessionLineValidator.Checked, headerLine: UnsafeRawBufferPointer, line: Int, on connection: ClientConnection
    ) {
        guard case .header(let header) = checked else {
            reject(connection, line: line, reason: "the first line must be a session header (kind 'session')")
            refuseIfFirst(connection)
            return
        }
        if let problem = SessionLineOrder.problem(startingWith: header) {
            reject(connection, line: line, reason: problem)
            refuseIfFirst(connection)
            return
        }
        let name = SessionFileName.make(storeID: header.storeID, sessionID: header.sessionID)
        let claim: (claimed: Bool, left: LeftSessions.Standing?) = shared.withLock { state in
            guard state.activeSessions.insert(name).inserted else { return (false, nil) }
            return (true, state.leftSessions.take(name))
        }
        guard claim.claimed else {
            reject(connection, line: line, reason: "session '\(header.sessionID)' is being recorded on another connection")
            refuseIfFirst(connection)
            return
        }
        let session: SessionFile
        do {
            session = try SessionFile.open(
                directory: options.sessionDirectory, name: name, header: header, headerLine: headerLine,
                maxLineBytes: options.maxLineBytes, left: claim.left)
        } catch {
            _ = shared.withLock { $0.activeSessions.remove(name) }
            log.write(.error, "session.open_failed", ["file": .string(name), "error": .string("\(error)")])
            reject(connection, line: line, reason: "cannot store the session: \(error)")
            refuseIfFirst(connection)
            return
        }
        connection.session = session
        connection.sessionID = header.sessionID
        connection.storedLines += session.isContinuation ? 0 : 1
        connection.reply(
            .welcome(
                .init(
                    sessionID: header.sessionID, lastSequence: session.lastSequence,
                    effectLinesAfterLastSequence: session.order.effectLinesSinceCovered, file: name)))
        log.write(.info, "session.started", [
            "connection": .integer(Int64(connection.id)), "sessionId": .string(header.sessionID),
            "storeId": .string(header.storeID), "app": .string(header.app.name), "file": .string(session.path),
            "continued": .bool(session.isContinuation), "lastSeq": .integer(Int64(session.lastSequence)),
            "readAgain": .bool(session.wasReadAgain),
        ])
    }

    /// A connection whose first line was refused is closed: nothing it sends can be stored.
    private func refuseIfFirst(_ connection: ClientConnection) {
        if connection.session == nil { connection.isClosing = true }
    }

    /// Counts and logs a rejected line and tells the client. A connection's first ``loggedRejections`` are logged
    /// one by one; later ones are only counted (in `connection.closed`), so a flood of bad lines cannot make the
    /// daemon spend its time writing its log while other clients wait.
    func reject(_ connection: ClientConnection, line: Int, reason: String) {
        connection.rejectedLines += 1
        connection.rejectedSinceStored += 1
        connection.reply(.rejected(line: line, reason: reason))
        guard connection.rejectedLines <= Self.loggedRejections else { return }
        var fields: [String: JSONValue] = [
            "connection": .integer(Int64(connection.id)), "sessionId": .string(connection.sessionID ?? ""),
            "line": .integer(Int64(line)), "reason": .string(reason),
        ]
        if connection.rejectedLines == Self.loggedRejections {
            fields["note"] = .string("further rejected lines on this connection are counted, not logged")
        }
        log.write(.warn, "line.rejected", fields)
    }

    /// How many rejected lines per connection are logged one by one.
    static let loggedRejections = 100
}
