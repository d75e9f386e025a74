/// The streams of a controller's ``ResultsController/updates()``, as one immutable value.
///
/// Publishing takes the reference under the controller's lock and yields outside it; subscribing and
/// unsubscribing replace it. A controller without subscribers holds none.
final class UpdateSubscribers<Object: Sendable>: Sendable {
    typealias Continuation = AsyncStream<ResultsUpdate<Object>>.Continuation

    private let continuations: [Int: Continuation]

    init(_ continuations: [Int: Continuation] = [:]) {
        self.continuations = continuations
    }

    /// These subscribers and `continuation` as `id`.
    func adding(_ continuation: Continuation, id: Int) -> UpdateSubscribers {
        var continuations = continuations
        continuations[id] = continuation
        return UpdateSubscribers(continuations)
    }

    /// These subscribers without `id`; `nil` when none is left.
    func removing(_ id: Int) -> UpdateSubscribers? {
        var continuations = continuations
        continuations[id] = nil
        return continuations.isEmpty ? nil : UpdateSubscribers(continuations)
    }

    /// Sends `update` to subscriber `id`.
    func yield(_ update: ResultsUpdate<Object>, to id: Int) {
        continuations[id]?.yield(update)
    }

    /// Sends `update` to every subscriber but those in `excluded`.
    func yield(_ update: ResultsUpdate<Object>, except excluded: Set<Int>) {
        for (id, continuation) in continuations where !excluded.contains(id) { continuation.yield(update) }
    }

    /// Ends every stream.
    func finishAll() {
        for continuation in continuations.values { continuation.finish() }
    }
}
