extension AnyFetchRequest {
    /// The tables whose changes can change this request's results: its entity's table and the table of
    /// every entity a key path of its predicate, sort descriptors or section key path crosses into, and of every
    /// relationship it prefetches.
    ///
    /// - Throws: the errors of resolving a key path (an unknown key, a malformed path).
    func tablesRead(in schema: Schema) throws -> Set<String> {
        let entity = try schema.entity(named: entityName)
        var tables: Set<String> = [entity.table]
        func add(_ key: FetchPredicate.Key) throws {
            for hop in try schema.resolve(key, from: entity).hops { tables.insert(hop.destination.table) }
        }
        for descriptor in sortDescriptors { try add(FetchPredicate.Key(descriptor.key)) }
        if let section = sectionNameKeyPath { try add(FetchPredicate.Key(section)) }
        for keyPath in try prefetchedKeyPaths(of: entity, in: schema) { try add(FetchPredicate.Key(keyPath)) }
        try predicate.forEachKey(add)
        return tables
    }

    /// The related tables whose changes a controller can localise, each with the entity's foreign-key
    /// attribute that points into it: tables every key path of the request reaches only through a to-one
    /// relationship of the entity itself (`category.name` on Todo: "categories" through `categoryID`).
    ///
    /// A changed row of such a table can only change the entity rows whose foreign key holds its primary key.
    /// Tables reached further away or through a to-many relationship are left out (their changes refetch).
    func localizableRelatedTables(in schema: Schema) throws -> [String: String] {
        try localizableTables(in: schema, throughToOne: true)
    }

    /// The tables every key path reaches only as its first hop, through a to-one (`throughToOne`) or a to-many
    /// relationship of the entity, each always through the same foreign key, with that foreign key.
    private func localizableTables(in schema: Schema, throughToOne: Bool) throws -> [String: String] {
        let entity = try schema.entity(named: entityName)
        var foreignKeys: [String: String] = [:]
        var unlocalizable: Set<String> = [entity.table]
        func add(_ key: FetchPredicate.Key) throws {
            for (index, hop) in try schema.resolve(key, from: entity).hops.enumerated() {
                let table = hop.destination.table
                if index == 0 && hop.isToOne == throughToOne
                    && foreignKeys[table].map({ $0 == hop.foreignKey.name }) ?? true
                {
                    foreignKeys[table] = hop.foreignKey.name
                } else {
                    unlocalizable.insert(table)
                }
            }
        }
        for descriptor in sortDescriptors { try add(FetchPredicate.Key(descriptor.key)) }
        if let section = sectionNameKeyPath { try add(FetchPredicate.Key(section)) }
        for keyPath in try prefetchedKeyPaths(of: entity, in: schema) { try add(FetchPredicate.Key(keyPath)) }
        try predicate.forEachKey(add)
        return foreignKeys.filter { !unlocalizable.contains($0.key) }
    }

    /// The request a controller runs: with sections, the section key path orders first (as
    /// NSFetchedResultsController requires of its first sort descriptor), so sections are contiguous.
    var sectionOrdered: AnyFetchRequest {
        guard let section = sectionNameKeyPath, sortDescriptors.first?.key != section else { return self }
        var request = self
        request.sortDescriptors.insert(.ascending(section), at: 0)
        return request
    }
}

extension FetchPredicate {
    /// Calls `body` with every key path the predicate names (including `@count` paths, aggregates' paths and
    /// the paths of `SUBQUERY`s), each from the evaluated entity: `$t.priority` in
    /// `SUBQUERY(todos, $t, $t.priority > 2)` is reported as `todos.priority`.
    func forEachKey(_ body: (Key) throws -> Void) rethrows {
        try forEachKey(variables: [:], body)
    }

    fileprivate func forEachKey(variables: [String: [String]], _ body: (Key) throws -> Void) rethrows {
        switch node {
        case .constant:
            return
        case .and(let parts), .or(let parts):
            for part in parts { try part.forEachKey(variables: variables, body) }
        case .not(let inner):
            try inner.forEachKey(variables: variables, body)
        case .comparison(let comparison):
            try comparison.lhs.forEachKey(variables: variables, body)
            try comparison.rhs.forEachKey(variables: variables, body)
        }
    }
}

extension FetchPredicate.Operand {
    fileprivate func forEachKey(
        variables: [String: [String]], _ body: (FetchPredicate.Key) throws -> Void
    ) rethrows {
        switch node {
        case .key(let key), .count(let key):
            try body(key.expanding(variables))
        case .aggregate(_, let collection, let value):
            let expanded = collection.expanding(variables)
            try body(FetchPredicate.Key(components: expanded.components + value.components, offset: expanded.offset))
        case .subquery(let subquery):
            let collection = subquery.collection.expanding(variables)
            try body(collection)
            var inner = variables
            inner[subquery.variable] = collection.components
            try subquery.predicate.forEachKey(variables: inner, body)
        case .arithmetic(let lhs, _, let rhs):
            try lhs.forEachKey(variables: variables, body)
            try rhs.forEachKey(variables: variables, body)
        case .elements(let elements):
            for element in elements { try element.forEachKey(variables: variables, body) }
        case .value, .list, .variable, .object:
            return
        }
    }
}

extension FetchPredicate.Key {
    /// The key path with its leading subquery variable replaced by the path the variable ranges over.
    fileprivate func expanding(_ variables: [String: [String]]) -> FetchPredicate.Key {
        guard let variable, let prefix = variables[variable] else { return self }
        return FetchPredicate.Key(components: prefix + components.dropFirst(), offset: offset)
    }
}

extension AnyFetchRequest {
    /// The to-many related tables whose changes a controller can localise, each with that table's foreign-key
    /// attribute pointing back at the entity: tables every key path reaches only as the first hop, through a
    /// to-many relationship of the entity (`todos.priority`, `todos.@count`, `SUBQUERY(todos, …)` on Category:
    /// "todos" through `categoryID`).
    ///
    /// A changed row of such a table can only change the entity rows its foreign key pointed at before or after
    /// the change (``TableChange/references``).
    func localizableChildTables(in schema: Schema) throws -> [String: String] {
        try localizableTables(in: schema, throughToOne: false)
    }
}
