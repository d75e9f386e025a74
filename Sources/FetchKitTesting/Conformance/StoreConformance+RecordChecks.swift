import FetchKit
import FetchKitFixtures

extension StoreConformance.Check {
    /// The checks of records of `Todo` and its category type: `#Predicate`s through relationships against
    /// `Predicate.evaluate`, a live controller over one, prefetched categories (fetched, and live), and random
    /// transactions against live controllers of typed requests, verified by the oracle.
    ///
    /// ``all`` leaves them out (FetchKitTesting builds without swift-syntax); the repository's conformance tests
    /// run them with the fixture records declared with `@Entity`.
    package static func records<Todo: ConformanceTodo>(_ type: Todo.Type) -> [Self] {
        [
            Self(
                name: "#Predicate through relationships selects what Predicate.evaluate selects (\(Todo.self))",
                body: { try await $0.checkRelationshipPredicates(type, on: $1) }),
            Self(
                name: "#Predicate through a relationship stays exact live (\(Todo.self))",
                body: { try await $0.checkLiveRelationshipPredicate(type, on: $1) }),
            Self(
                name: "prefetching: each fetched record carries its related record (\(Todo.self))",
                body: { try await $0.checkPrefetchedFetch(type, on: $1) }),
            Self(
                name: "prefetching: a live controller's related records follow their rows (\(Todo.self))",
                body: { try await $0.checkLivePrefetching(type, on: $1) }),
            Self(
                name: "live records: random transactions through typed requests (\(Todo.self))",
                body: { try await $0.checkLiveRecords(type, on: $1) })
        ]
    }
}
