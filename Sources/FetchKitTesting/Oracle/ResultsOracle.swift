import FetchKit

/// The correctness oracle of live results: after each commit, a controller's content equals a fresh
/// fetch of its request, and the batch it emitted passes ``ListSimulator``.
public enum ResultsOracle {
    /// Checks that applying `update.changeset` to `update.previous` gives `update.snapshot`, under
    /// UITableView's rules, rows identified by primary key and compared by content.
    public static func check(_ update: ResultsBatch<Row>, primaryKey: String) throws {
        guard let changeset = update.changeset else { return }
        _ = try ListSimulator.apply(
            changeset, to: sections(update.previous), expecting: sections(update.snapshot),
            identifiedBy: { $0[primaryKey] ?? .null })
    }

    /// Checks that `controller` holds exactly what a fresh fetch of its request returns, in the same sections.
    public static func checkMatchesFreshFetch(_ controller: ResultsController<Row>, in store: any PersistentStore)
        async throws
    {
        try await checkMatchesFreshFetch(controller.snapshot, of: controller.request, in: store)
    }

    /// Checks that `snapshot` holds exactly what a fresh fetch of `request` returns, in the same sections.
    public static func checkMatchesFreshFetch(
        _ snapshot: ResultsSnapshot<Row>, of request: FetchRequest<Row>, in store: any PersistentStore
    ) async throws {
        var ordered = request
        if let section = request.sectionNameKeyPath, request.sortDescriptors.first?.key != section {
            ordered.sortDescriptors.insert(.ascending(section), at: 0)
        }
        let fresh = try await store.fetch(ordered)
        guard snapshot.fetchedObjects == fresh else {
            throw OracleFailure(
                "controller for \(request.predicate) holds \(snapshot.fetchedObjects.count) rows, a fresh fetch "
                    + "\(fresh.count); first difference at \(firstDifference(Array(snapshot.fetchedObjects), fresh))")
        }
        if let key = request.sectionNameKeyPath {
            var names: [String] = []
            for row in fresh {
                let name = (row[key] ?? .null).sectionName
                // Sections are told apart byte for byte, as the database stores their values.
                if names.last.map({ !$0.utf8.elementsEqual(name.utf8) }) ?? true { names.append(name) }
            }
            guard snapshot.sections.map(\.name).elementsEqual(names, by: { $0.utf8.elementsEqual($1.utf8) }) else {
                throw OracleFailure("sections \(snapshot.sections.map(\.name)) but a fresh fetch gives \(names)")
            }
        }
    }

    static func sections(_ snapshot: ResultsSnapshot<Row>) -> [(section: String, rows: [Row])] {
        snapshot.sections.map { (section: $0.name, rows: Array($0.objects)) }
    }

    private static func firstDifference(_ a: [Row], _ b: [Row]) -> String {
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index].description : "nothing"
            let right = index < b.count ? b[index].description : "nothing"
            if left != right { return "row \(index): \(left) vs \(right)" }
        }
        return "none"
    }
}

extension ResultsOracle {
    /// Checks that applying `update.changeset` to `update.previous` gives `update.snapshot`, under
    /// UITableView's rules, records identified by primary key (their first attribute value) and compared by
    /// content.
    public static func check<R: EntityRecord & Equatable>(_ update: ResultsBatch<R>) throws {
        guard let changeset = update.changeset else { return }
        _ = try ListSimulator.apply(
            changeset, to: sections(update.previous), expecting: sections(update.snapshot),
            identifiedBy: { $0.attributeValues()[0] })
    }

    /// Checks that a controller of records holds exactly the records a fresh fetch of its request returns, in
    /// the sections a fresh fetch of its rows gives.
    public static func checkMatchesFreshFetch<R: Record & Equatable>(
        _ controller: ResultsController<R>, in store: any PersistentStore
    ) async throws {
        let snapshot = controller.snapshot
        var ordered = controller.request
        if let section = ordered.sectionNameKeyPath, ordered.sortDescriptors.first?.key != section {
            ordered.sortDescriptors.insert(.ascending(section), at: 0)
        }
        let fresh = try await store.fetch(ordered)
        guard Array(snapshot.fetchedObjects) == fresh else {
            throw OracleFailure(
                "controller for \(ordered.predicate) holds \(snapshot.fetchedObjects.count) records, a fresh fetch "
                    + "\(fresh.count)")
        }
        if let key = ordered.sectionNameKeyPath {
            var names: [String] = []
            for row in try await store.fetch(ordered.erased) {
                let name = (row[key] ?? .null).sectionName
                if names.last.map({ !$0.utf8.elementsEqual(name.utf8) }) ?? true { names.append(name) }
            }
            guard snapshot.sections.map(\.name).elementsEqual(names, by: { $0.utf8.elementsEqual($1.utf8) }) else {
                throw OracleFailure("sections \(snapshot.sections.map(\.name)) but a fresh fetch gives \(names)")
            }
        }
    }

    static func sections<R>(_ snapshot: ResultsSnapshot<R>) -> [(section: String, rows: [R])] {
        snapshot.sections.map { (section: $0.name, rows: Array($0.objects)) }
    }
}
