/// A controller that sends batches to a ``ResultsControllerDelegate``: what its callbacks carry.
///
/// ``ResultsController`` and ``MultiResultsController`` send their objects, ``ResultsSection``s and
/// ``ResultsBatch``s; ``CompositeResultsController`` sends ``CompositeRow``s, ``CompositeSection``s and
/// ``CompositeBatch``s. Only FetchKit's controllers conform.
public protocol DelegatingController: AnyObject, Sendable {
    /// What a row change carries.
    associatedtype Object: Sendable
    /// What a section change carries.
    associatedtype Section: Sendable
    /// The whole batch, sent last.
    associatedtype Update: Sendable
}

extension ResultsController: DelegatingController {
    public typealias Section = ResultsSection<Object>
    public typealias Update = ResultsBatch<Object>
}

extension MultiResultsController: DelegatingController {
    public typealias Section = ResultsSection<Object>
    public typealias Update = ResultsBatch<Object>
}

extension CompositeResultsController: DelegatingController {
    public typealias Object = CompositeRow
    public typealias Section = CompositeSection
    public typealias Update = CompositeBatch
}
