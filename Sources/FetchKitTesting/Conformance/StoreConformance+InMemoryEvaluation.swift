import FetchKit
import FetchKitFixtures
import Foundation

extension StoreConformance {
    /// The differential check of in-memory evaluation: random predicates against random rows, the verdict in
    /// memory equal to the database's for every (predicate, row) pair.
    static var inMemoryEvaluationChecks: [Check] {
        [
            Check(
                name: "in-memory predicate evaluation equals the database's (24,000 pairs)",
                schema: PredicateGenerator.schema
            ) { suite, store in
                try await suite.checkInMemoryEvaluation(on: store, seed: 0x5EED_F00D, pairs: 24_000)
            }
        ]
    }

    /// Runs random predicates through the database and through ``InMemoryPredicate`` over the same rows until
    /// `pairs` (predicate, row) verdicts were compared; any difference fails, naming the predicate and the row.
    func checkInMemoryEvaluation(on store: any PersistentStore, seed: UInt64, pairs: Int) async throws {
        var generator = PredicateGenerator(random: SeededRandom(seed: seed))
        let refs = 12
        let probes = 120
        try await store.write { [generator] tx in
            var generator = generator
            for id in 1...refs { try tx.insert(generator.refRow(id: Int64(id)), into: "Ref") }
            for _ in 0..<probes { try tx.insert(generator.probeRow(refs: refs), into: "Probe") }
        }
        generator.random = SeededRandom(seed: seed &+ 1)
        let schema = PredicateGenerator.schema
        let entity = PredicateGenerator.probe
        let rows = try await store.fetch(
            FetchRequest(
                entity: "Probe", sortDescriptors: PredicateGenerator.keys.map { .ascending($0.0) }))
        var compared = 0
        var evaluable = 0
        var predicates = 0
        while compared < pairs {
            predicates += 1
            try ConformanceFailure.require(predicates < 5_000, "only \(compared) pairs after \(predicates) predicates")
            let predicate = generator.predicate()
            guard let validated = try? predicate.validated(for: entity, in: schema) else { continue }
            let memory = InMemoryPredicate(validated, entity: entity, schema: schema, dialect: store.dialect)
            let matching: Set<Value>
            do {
                matching = Set(
                    try await store.fetch(
                        FetchRequest(
                            entity: "Probe", predicate: validated, propertiesToFetch: ["id"])
                    ).map { $0["id"] ?? .null })
            } catch let error as FetchKitError where error.code == .unsupported {
                let what = error.message
                try ConformanceFailure.require(
                    memory == nil, "\(predicate) is unsupported by the database (\(what)) but evaluates in memory")
                continue
            }
            guard let memory else { continue }
            evaluable += 1
            for row in rows {
                let inDatabase = matching.contains(row["id"] ?? .null)
                let inMemory = memory.matches(row)
                try ConformanceFailure.require(
                    inDatabase == inMemory,
                    "\(predicate): the database says \(inDatabase), memory \(inMemory), for \(row) (seed \(seed))")
                compared += 1
            }
        }
        try ConformanceFailure.require(evaluable * 2 > predicates / 2, "only \(evaluable) of \(predicates) evaluable")
    }
}
