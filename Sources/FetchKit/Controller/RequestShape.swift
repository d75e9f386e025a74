/// What a controller knows of its request's tables, installed whole by each fetch that works (or taken from the
/// leader whose results it follows): which tables it reads, its entity's key, and which related changes the
/// incremental path localises.
struct RequestShape: Sendable {
    /// The tables the request reads (its entity's, and those its key paths cross).
    var tables: Set<String> = []
    /// The entity's primary key.
    var primaryKeyName = "id"
    /// The type of the entity's primary key (references are coerced to it).
    var primaryKeyType = AttributeType.integer
    /// The table of the request's entity.
    var entityTable = ""
    /// Related tables whose changes the incremental path localises, with the entity's foreign key into each.
    var relatedForeignKeys: [String: String] = [:]
    /// To-many related tables whose changes the incremental path localises, with each one's foreign key back
    /// into the entity.
    var childForeignKeys: [String: String] = [:]
    /// The columns of the controller's rows, for rows the router re-read.
    var rowLayout: RowLayout?
}

/// The request a controller's results answer, installed whole by each fetch that works (or taken from the leader
/// whose results it follows): the request, its shape, and the router's plan for it (none for a follower).
struct InstalledRequest: Sendable {
    var request: AnyFetchRequest
    var shape: RequestShape
    var plan: RoutePlan?
}
