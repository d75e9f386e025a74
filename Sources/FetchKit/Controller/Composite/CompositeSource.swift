/// A results part, whatever its object type: what the composite asks of it.
protocol CompositeSource: Sendable {
    /// The part's position among the composite's parts.
    var index: Int { get }
    /// Becomes the controller's delegate and fetches its results.
    func fetch() async throws
    /// Waits until the controller has applied (and reported) every change published before the call.
    func sync() async
    /// What the composite shows of the controller's current results.
    func currentContent() -> PartContent
    /// The last store transaction the controller has applied (``ResultsController/appliedTransactionID``).
    var appliedTransactionID: UInt64 { get }
    /// The controller's status.
    var status: ResultsStatus { get }
}

extension ResultsPartSource: CompositeSource {
    func fetch() async throws {
        controller.delegate = self
        try await controller.performFetch()
    }

    func sync() async { await controller.sync() }

    func currentContent() -> PartContent { content(of: controller.snapshot) }

    var appliedTransactionID: UInt64 { controller.appliedTransactionID }

    var status: ResultsStatus { controller.status }
}
