import FetchKit
import FetchKitFixtures
import Foundation

extension StoreConformance {
    /// One named conformance check.
    public struct Check: Sendable, CustomStringConvertible {
        /// What the check is about.
        public let name: String
        /// The schema of the check's store; `nil` for ``Fixtures/schema`` seeded with the fixtures.
        let schema: Schema?
        /// Whether the check changes the database behind the store's back with raw SQL (renaming a column).
        /// On a store whose dialect runs no SQL (``SQLDialect/runsSQL``), ``StoreConformance/run(_:)`` checks
        /// instead that the store refuses raw SQL with ``FetchKitError/Code/unsupported`` and loses nothing.
        public let requiresSQL: Bool
        let body: @Sendable (StoreConformance, any PersistentStore) async throws -> Void

        init(
            name: String, schema: Schema? = nil, requiresSQL: Bool = false,
            body: @escaping @Sendable (StoreConformance, any PersistentStore) async throws -> Void
        ) {
            self.name = name
            self.schema = schema
            self.requiresSQL = requiresSQL
            self.body = body
        }

        public var description: String { name }

        /// Every check: each predicate form, the fetch, sort, value and write behaviours, live controllers, and the
        /// random live-results check. The checks of typed records through relationships need records declared
        /// with `@Entity`: the repository's conformance tests add them (``records(_:)``).
        public static var all: [Check] {
            predicates + queries + StoreConformance.valueChecks + StoreConformance.writeChecks
                + StoreConformance.typedWriteChecks + StoreConformance.rawSQLChecks
                + isolation + controllers + StoreConformance.multiChecks + StoreConformance.transitionRaceChecks
                + StoreConformance.reorderChecks
                + StoreConformance.compositeChecks + StoreConformance.wireChecks
                + StoreConformance.inMemoryEvaluationChecks + StoreConformance.manyControllerChecks
                + StoreConformance.failureChecks + StoreConformance.deliveryChecks + StoreConformance.userMoveRaceChecks
                + StoreConformance.userMoveDataSourceChecks
                + StoreConformance.bulkInsertChecks + StoreConformance.caseFoldRuleChecks + StoreConformance.closeChecks
                + [liveResults]
        }

        /// Thousands of random transactions against eleven live controllers, each checked against a fresh
        /// fetch and ``ListSimulator`` after every commit.
        public static var liveResults: Check {
            Check(name: "live results: random transactions", body: { try await $0.checkLiveResults(on: $1) })
        }

        /// The checks of how writes are isolated: raw transaction control refused, readers beside a write,
        /// concurrent writes in turn.
        public static var isolation: [Check] { StoreConformance.isolationChecks }

        /// The live-controller checks: each kind of change, related tables, limits, request changes, staged
        /// batches, and which changes take the incremental path.
        public static var controllers: [Check] { StoreConformance.controllerChecks }

        /// One check per predicate form (``StoreConformance/predicateCases`` and
        /// ``StoreConformance/expressionCases``).
        public static var predicates: [Check] {
            (StoreConformance.predicateCases + StoreConformance.expressionCases).map { testCase in
                Check(name: "predicate \(testCase)") { suite, store in
                    try await suite.checkPredicate(testCase, on: store)
                }
            }
        }

        /// The fetch, sort, substitution and injection checks.
        public static var queries: [Check] {
            [
                Check(name: "variable substitution", body: { try await $0.checkVariableSubstitution(on: $1) }),
                Check(name: "injection through values is harmless", body: { try await $0.checkValueInjection(on: $1) }),
                Check(name: "injection through a key is rejected", body: { try await $0.checkKeyInjection(on: $1) }),
                Check(name: "type mismatch is reported", body: { try await $0.checkTypeMismatch(on: $1) }),
                Check(name: "MATCHES is unsupported", body: { try await $0.checkMatchesUnsupported(on: $1) }),
                Check(name: "text primary keys", body: { try await $0.checkTextPrimaryKey(on: $1) }),
                Check(name: "sort orders, limits and offsets", body: { try await $0.checkSortOrdersAndLimits(on: $1) }),
                Check(
                    name: "case folding in the database equals FetchKit's: final sigma, ß, İ, titlecase",
                    body: { try await $0.checkCaseFolding(on: $1) }),
                Check(
                    name: "fetched properties: the key, the named ones, the section key",
                    body: { try await $0.checkPropertiesToFetch(on: $1) })
            ]
        }
    }
}
