import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// A Chrome DevTools Protocol client over one WebSocket: commands with ids, answered in any order, and
/// page sessions (flattened) addressed by session id.
final class DevTools: Sendable {
    private struct Command: Encodable {
        let id: Int
        let method: String
        let params: JSONValue
        let sessionId: String?
    }

    private struct Answer: Decodable {
        struct Failure: Decodable {
            let message: String
        }
        let id: Int?
        let result: JSONValue?
        let error: Failure?
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var closed: (any Error)?
    }

    private let state = Mutex(State())
    private let outbound: WebSocketOutboundWriter
    private let connection: Task<Void, Never>

    private init(outbound: WebSocketOutboundWriter, connection: Task<Void, Never>) {
        self.outbound = outbound
        self.connection = connection
    }

    /// Connects to a browser's DevTools endpoint.
    static func connect(to url: String) async throws -> DevTools {
        let (ready, readySink) = AsyncStream.makeStream(of: (WebSocketOutboundWriter, AsyncStream<String>).self)
        let failure = Mutex<(any Error)?>(nil)
        let connection = Task {
            let logger = Logger(label: "devtools")
            do {
                try await WebSocketClient.connect(
                    url: url, configuration: .init(maxFrameSize: 1 << 24), logger: logger
                ) { inbound, outbound, _ in
                    let (messages, messageSink) = AsyncStream.makeStream(of: String.self)
                    readySink.yield((outbound, messages))
                    for try await message in inbound.messages(maxSize: 1 << 24) {
                        if case .text(let text) = message { messageSink.yield(text) }
                    }
                    messageSink.finish()
                }
            } catch {
                failure.withLock { $0 = error }
            }
            readySink.finish()
        }
        var iterator = ready.makeAsyncIterator()
        guard let (outbound, messages) = await iterator.next() else {
            throw Failure(
                description:
                    "could not connect to Chromium's DevTools at \(url): "
                    + "\(failure.withLock { $0.map { "\($0)" } ?? "closed" })"
            )
        }
        let client = DevTools(outbound: outbound, connection: connection)
        Task { await client.dispatch(messages) }
        return client
    }

    /// Sends `method` with `params` (to the page session `session`, if given) and returns its result.
    @discardableResult
    func send(_ method: String, _ params: JSONValue = [:], session: String? = nil) async throws -> JSONValue {
        let text = try withID { id in
            String(
                decoding: try JSONEncoder().encode(Command(id: id, method: method, params: params, sessionId: session)),
                as: UTF8.self)
        }
        return try await withCheckedThrowingContinuation { continuation in
            let failed = state.withLock { state -> (any Error)? in
                if let closed = state.closed { return closed }
                state.waiting[text.id] = continuation
                return nil
            }
            if let failed {
                continuation.resume(throwing: failed)
                return
            }
            Task {
                do {
                    try await outbound.write(.text(text.json))
                } catch {
                    let waiting = state.withLock { $0.waiting.removeValue(forKey: text.id) }
                    waiting?.resume(throwing: error)
                }
            }
        }
    }

    private func withID(_ make: (Int) throws -> String) throws -> (id: Int, json: String) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return (id, try make(id))
    }

    private func dispatch(_ messages: AsyncStream<String>) async {
        for await text in messages {
            guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(text.utf8)), let id = answer.id else {
                continue
            }
            let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
            if let failure = answer.error {
                continuation?.resume(throwing: Failure(description: "DevTools: \(failure.message)"))
            } else {
                continuation?.resume(returning: answer.result ?? .null)
            }
        }
        let waiting = state.withLock { state in
            state.closed = Failure(description: "the DevTools connection closed")
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for continuation in waiting {
            continuation.resume(throwing: Failure(description: "the DevTools connection closed"))
        }
    }

    /// Closes the connection.
    func close() async {
        try? await outbound.close(.normalClosure, reason: nil)
        connection.cancel()
    }
}

/// A page (tab) of the browser, driven through its DevTools session.
struct BrowserPage: Sendable {
    let devTools: DevTools
    let session: String

    /// Opens `url` in a new tab of a new browser context: a profile of its own, with its own cookies (a person
    /// signed in on their own machine).
    static func open(_ url: String, in devTools: DevTools) async throws -> BrowserPage {
        let context = try await devTools.send("Target.createBrowserContext")
        guard let contextID = context["browserContextId"]?.string else {
            throw DevTools.Failure(description: "no browser context for \(url)")
        }
        let target = try await devTools.send(
            "Target.createTarget", ["url": .string(url), "browserContextId": .string(contextID)])
        guard let targetID = target["targetId"]?.string else {
            throw DevTools.Failure(description: "no target for \(url)")
        }
        let attached = try await devTools.send(
            "Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let session = attached["sessionId"]?.string else {
            throw DevTools.Failure(description: "no session for \(url)")
        }
        return BrowserPage(devTools: devTools, session: session)
    }

    /// Loads `url` in this tab (its cookies kept).
    func navigate(_ url: String) async throws {
        try await devTools.send("Page.navigate", ["url": .string(url)], session: session)
    }

    /// Evaluates `expression` in the page; returns its value (a string: expressions end in JSON.stringify).
    func evaluate(_ expression: String) async throws -> String? {
        let result = try await devTools.send(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true],
            session: session)
        if let exception = result["exceptionDetails"] {
            throw DevTools.Failure(
                description: "the page threw: \(exception["exception"]?["description"]?.string ?? "\(exception)")")
        }
        return result["result"]?["value"]?.string
    }

    /// Presses the left mouse button at `from`, moves in steps to `to` (running `midway` halfway), and
    /// releases it there.
    func drag(
        from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 12,
        midway: () async throws -> Void = {}
    ) async throws {
        try await devTools.send("Page.bringToFront", session: session)
        try await mouse("mousePressed", at: from, buttons: 1)
        for step in 1...steps {
            if step == steps / 2 { try await midway() }
            let t = Double(step) / Double(steps)
            try await mouse("mouseMoved", at: (from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t), buttons: 1)
            try await Task.sleep(for: .milliseconds(16))
        }
        try await mouse("mouseReleased", at: to, buttons: 0)
    }

    /// Clicks the left mouse button at `point`.
    func click(at point: (x: Double, y: Double)) async throws {
        try await devTools.send("Page.bringToFront", session: session)
        try await mouse("mousePressed", at: point, buttons: 1)
        try await mouse("mouseReleased", at: point, buttons: 0)
    }

    /// Types `text` into the focused element, as a keyboard would.
    func type(_ text: String) async throws {
        try await devTools.send("Input.insertText", ["text": .string(text)], session: session)
    }

    private func mouse(_ type: String, at point: (x: Double, y: Double), buttons: Int) async throws {
        try await devTools.send(
            "Input.dispatchMouseEvent",
            [
                "type": .string(type), "x": .number(point.x), "y": .number(point.y), "button": "left",
                "buttons": .number(Double(buttons)), "clickCount": 1
            ], session: session)
    }
}
