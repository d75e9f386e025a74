/// The readers of a controller's ``ResultsController/updates()``, as one immutable value.
///
/// Publishing takes the reference under the controller's lock and pushes outside it; subscribing and
/// unsubscribing replace it. A controller without subscribers holds none.
final class UpdateSubscribers<Object: Sendable>: Sendable {
    private let buffers: [Int: UpdateBuffer<Object>]

    init(_ buffers: [Int: UpdateBuffer<Object>] = [:]) {
        self.buffers = buffers
    }

    /// These subscribers and `buffer` as `id`.
    func adding(_ buffer: UpdateBuffer<Object>, id: Int) -> UpdateSubscribers {
        var buffers = buffers
        buffers[id] = buffer
        return UpdateSubscribers(buffers)
    }

    /// These subscribers without `id`; `nil` when none is left.
    func removing(_ id: Int) -> UpdateSubscribers? {
        var buffers = buffers
        buffers[id] = nil
        return buffers.isEmpty ? nil : UpdateSubscribers(buffers)
    }

    /// Sends `update` to subscriber `id`.
    func yield(_ update: ResultsBatch<Object>, to id: Int) {
        buffers[id]?.push(update)
    }

    /// Sends `update` to every subscriber but those in `excluded`; returns how many started coalescing.
    @discardableResult
    func yield(_ update: ResultsBatch<Object>, except excluded: Set<Int>) -> Int {
        var coalesced = 0
        for (id, buffer) in buffers where !excluded.contains(id) {
            if buffer.push(update) { coalesced += 1 }
        }
        return coalesced
    }

    /// Ends every sequence, by throwing `failure` when given.
    func finishAll(throwing failure: FetchKitError? = nil) {
        for buffer in buffers.values { buffer.finish(throwing: failure) }
    }
}
