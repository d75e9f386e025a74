import FetchKit
import Foundation

extension StoreConformance {
    /// One named conformance check.
    public struct Check: Sendable, CustomStringConvertible {
        /// What the check is about.
        public let name: String
        let body: @Sendable (StoreConformance, any PersistentStore) async throws -> Void

        public var description: String { name }

        /// Every check: each predicate form, the fetch, sort and write behaviours, and live results.
        public static var all: [Check] { predicates + queries + StoreConformance.writeChecks + [liveResults] }

        /// Thousands of random transactions against eleven live controllers, each checked against a fresh
        /// fetch and ``ListSimulator`` after every commit.
        public static var liveResults: Check {
            Check(name: "live results: random transactions", body: { try await $0.checkLiveResults(on: $1) })
        }

        /// One check per predicate form (``StoreConformance/predicateCases``).
        public static var predicates: [Check] {
            StoreConformance.predicateCases.map { testCase in
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
            ]
        }
    }
}
