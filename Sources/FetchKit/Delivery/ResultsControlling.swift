/// A controller that sends batches to a ``ResultsControllerDelegate``: what its callbacks carry.
///
/// ``ResultsController`` and ``MultiResultsController`` send their objects, ``ResultsSection``s and
/// ``ResultsUpdate``s; ``CompositeResultsController`` sends ``CompositeRow``s, ``CompositeSection``s and
/// ``CompositeUpdate``s. Only FetchKit's controllers conform.
public protocol ResultsControlling: AnyObject, Sendable {
    /// What a row change carries.
    associatedtype Object: Sendable
    /// What a section change carries.
    associatedtype Section: Sendable
    /// The whole batch, sent last.
    associatedtype Update: Sendable
}

extension ResultsController: ResultsControlling {
    public typealias Section = ResultsSection<Object>
    public typealias Update = ResultsUpdate<Object>
}

extension MultiResultsController: ResultsControlling {
    public typealias Section = ResultsSection<Object>
    public typealias Update = ResultsUpdate<Object>
}

extension CompositeResultsController: ResultsControlling {
    public typealias Object = CompositeRow
    public typealias Section = CompositeSection
    public typealias Update = CompositeUpdate
}
