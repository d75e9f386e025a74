import ArgumentParser
import FetchKit

/// The query `watch` and `explain` run on an existing table: the database, the table, and the request's
/// predicate, sort, sections and limit.
struct TableQuery: ParsableArguments {
    @Option(help: "The database: sqlite:///path, or postgres://user@host/db.")
    var store: String

    @Option(help: "The table.")
    var entity: String

    @Option(name: .customLong("where"), help: "A predicate in NSPredicate format over the table's columns.")
    var predicate: String?

    // Unconditional: the value may start with '-' (`--sort -priority,title`), which is not an option.
    @Option(
        parsing: .unconditional,
        help: "Sort keys, comma-separated; a leading '-' sorts descending (default: the primary key).")
    var sort: String?

    @Option(help: "Section by this key path.")
    var section: String?

    @Option(help: "At most this many rows (held live).")
    var limit: Int?

    /// The request over `table`, as the options describe it.
    ///
    /// - Throws: a predicate or a sort that does not parse.
    func request(on table: Entity) throws -> FetchRequest<Row> {
        FetchRequest(
            entity: table.name, predicate: try predicate.map { try FetchPredicate(format: $0) } ?? .true,
            sortDescriptors: try sort.map(QueryCommand.parseSort) ?? [], fetchLimit: limit,
            sectionNameKeyPath: section)
    }
}
