import FetchKit
import Logging

extension LiveResultsSession {
    /// Serves one client until it disconnects, its list stops, or the task is cancelled.
    ///
    /// `scope` is the signed-in user's part of the data, AND-ed with the server's request and the client's filter
    /// (`nil`: the whole request). `inbound` is the client's text messages; `transport` writes to its socket.
    ///
    /// It ends by closing the socket: 1000 when the store closed; 1001 when the task is cancelled or its
    /// ``LiveSessionGroup`` shuts down (the server shuts down gracefully; the client resumes); 1008 after refusing
    /// the client's `open`; 1011 after a failure. Nothing it sends names SQL or server internals.
    public func run<Inbound: AsyncSequence & Sendable>(
        scope: FetchPredicate?, inbound: Inbound, transport: some SessionTransport
    ) async where Inbound.Element == String {
        await run(scope: { scope }, inbound: inbound, transport: transport)
    }

    /// Serves one client whose scope is decided now, for this connection: `scope` runs first (it may look the
    /// user up); when it throws, the client receives `refused` — the message of a ``SessionError`` it throws, a
    /// fixed `forbidden` one for any other error — and the socket closes with 1008. Otherwise as
    /// ``run(scope:inbound:transport:)``. The session counts in its ``LiveSessionGroup`` from the start: a
    /// shutdown cancels a `scope` under way and waits for it to return (it may read the store), and the client
    /// gets 1001, not 1008.
    public func run<Inbound: AsyncSequence & Sendable>(
        scope: @escaping @Sendable () async throws -> FetchPredicate?, inbound: Inbound,
        transport: some SessionTransport
    ) async where Inbound.Element == String {
        let out = SendQueue(transport)
        let goingAway: @Sendable () -> Void = {
            Task { await out.close(.goingAway, reason: "the server is shutting down") }
        }
        // The group's shutdown closes the socket and cancels the work, as cancelling this task does.
        let (shutdown, shuttingDown) = AsyncStream.makeStream(of: Never.self)
        var membership: Int?
        if let sessions {
            let close: @Sendable () -> Void = {
                shuttingDown.finish()
                goingAway()
            }
            guard let id = sessions.join(closing: close) else {
                return await out.close(.goingAway, reason: "the server is shutting down")
            }
            membership = id
        }
        defer { if let membership { sessions?.leave(membership) } }
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await decideAndServe(scope: scope, inbound: inbound, out: out) }
                group.addTask { for await _ in shutdown {} }
                await group.next()
                group.cancelAll()
            }
        } onCancel: {
            // Graceful shutdown: the socket closes (after the send under way), which ends the client's messages.
            goingAway()
        }
    }

    /// Decides the scope, then serves the client; a cancelled decision sends nothing (the socket is closing with
    /// 1001).
    private func decideAndServe<Inbound: AsyncSequence & Sendable>(
        scope: @escaping @Sendable () async throws -> FetchPredicate?, inbound: Inbound, out: SendQueue
    ) async where Inbound.Element == String {
        let decided: FetchPredicate?
        do {
            decided = try await scope()
        } catch {
            if Task.isCancelled { return }
            let refusal = error as? SessionError ?? SessionError(.forbidden, "this list is not available here")
            return await refuse(refusal, out: out)
        }
        await serve(scope: decided, inbound: inbound, out: out)
    }

    private func serve<Inbound: AsyncSequence & Sendable>(
        scope: FetchPredicate?, inbound: Inbound, out: SendQueue
    ) async where Inbound.Element == String {
        var messages = inbound.makeAsyncIterator()
        guard let first = await next(&messages) else { return }
        let opening: Opening
        do {
            opening = try Opening(first, policy: policy)
        } catch {
            return await refuse(error, out: out)
        }
        let narrowed = opening.query.narrowing(request, scope: scope)
        let controller = makeController(store, narrowed, logger)
        do {
            try await controller.performFetch()
        } catch {
            let refusal = SessionError(sanitizing: error)
            if refusal.code == .invalid || refusal.code == .forbidden { return await refuse(refusal, out: out) }
            logger.warning("a live session could not fetch its list", metadata: ["error": "\(error)"])
            return await fail(refusal, closed: (error as? FetchKitError)?.code == .closed, out: out)
        }
        let updates = controller.updates(bufferingLimit: bufferingLimit)
        let sender = ListSender(
            session: self, request: narrowed.erased, resumeFrom: opening.resume, out: out,
            objects: controller.objects(from:))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sender.forward(updates) }
            group.addTask { await forwardStatus(of: controller, out: out) }
            // The client's messages, one at a time, on this task.
            while let text = await next(&messages) {
                await perform(text, updates: updates, out: out)
            }
            group.cancelAll()
        }
        withExtendedLifetime(controller) {}
    }

    /// Sends `message`; a send that fails means the client went away (its messages end next), so it is logged and
    /// the session goes on to end.
    func tell(_ message: SessionMessage<Projected>, out: SendQueue) async {
        do {
            try await out.send(message.json())
        } catch {
            logger.debug("a live session could not send", metadata: ["type": "\(message.type)", "error": "\(error)"])
        }
    }

    /// The client's next message; `nil` once it disconnected, cleanly or not (an abrupt end is logged).
    private func next<Messages: AsyncIteratorProtocol>(_ messages: inout Messages) async -> String?
    where Messages.Element == String {
        do {
            return try await messages.next()
        } catch {
            logger.debug("a live session's client went away", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Refuses the client's `open`, then closes with 1008.
    private func refuse(_ error: any Error, out: SendQueue) async {
        let refusal = SessionError(sanitizing: error)
        logger.debug("a live session refused its client", metadata: ["error": "\(refusal)"])
        await tell(SessionMessage<Projected>.refused(refusal), out: out)
        await out.close(.policyViolation, reason: String(refusal.message.prefix(100)))
    }

    /// Tells the client the list failed, then closes: 1000 when its store closed, 1011 otherwise.
    func fail(_ error: SessionError, closed: Bool, out: SendQueue) async {
        await tell(SessionMessage<Projected>.error(error), out: out)
        await out.close(closed ? .normal : .internalError, reason: closed ? "the list ended" : "the list failed")
    }

    /// Runs one message of the client's after `open`; a bad one is answered with `error`, never a close.
    private func perform(_ text: String, updates: ResultsStream<Object>, out: SendQueue) async {
        let message: ClientMessage
        do {
            message = try ClientMessage(json: text)
        } catch {
            await tell(SessionMessage<Projected>.error(error), out: out)
            return
        }
        switch message {
        case .open:
            await tell(SessionMessage<Projected>.error(.init(.invalid, "the list is already open")), out: out)
        case .move(let id, let key, let destination):
            var failure: SessionError?
            do {
                // Returns once the reader has sent every batch that shows the move: the acknowledgement follows.
                try await updates.moveRow(withKey: key, to: destination)
            } catch {
                failure = SessionError(sanitizing: error)
                logger.debug("a live session's move failed", metadata: ["error": "\(error)"])
            }
            await tell(SessionMessage<Projected>.moved(id: id, error: failure), out: out)
        }
    }

    /// Tells the client each change of the list's status (it starts live with its first results).
    private func forwardStatus(of controller: ResultsController<Object>, out: SendQueue) async {
        var told = SessionStatus.live
        for await status in controller.statusUpdates() {
            guard let status = SessionStatus(status), status != told else { continue }
            told = status
            await tell(SessionMessage<Projected>.status(status), out: out)
        }
    }
}

/// The client's `open`, checked.
private struct Opening {
    var query: ClientQuery
    var resume: ResumeToken?

    init(_ text: String, policy: ClientQueryPolicy) throws(SessionError) {
        guard case .open(let filter, let sort, let token) = try ClientMessage(json: text) else {
            throw SessionError(.invalid, "the first message opens the list")
        }
        query = try ClientQuery(filter: filter, sort: sort, policy: policy)
        // A token that is not one is answered like an unknown one: with a reset.
        resume = token.flatMap(ResumeToken.init) ?? (token == nil ? nil : ResumeToken(session: "", sequence: 0))
    }
}
