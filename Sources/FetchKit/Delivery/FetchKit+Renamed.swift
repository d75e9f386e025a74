// Names of earlier releases: using one is a compile error whose fix-it writes the new name.

@available(*, unavailable, renamed: "ResultsBatch")
public typealias ResultsUpdate<Object: Sendable> = ResultsBatch<Object>

@available(*, unavailable, renamed: "ResultsStream")
public typealias ResultsUpdates<Object: Sendable> = ResultsStream<Object>

@available(*, unavailable, renamed: "CompositeBatch")
public typealias CompositeUpdate = CompositeBatch

@available(*, unavailable, renamed: "DelegatingController")
public typealias ResultsControlling = DelegatingController
