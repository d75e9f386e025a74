extension ResultsController {
    /// Moves the object at `from` to `to` because the user dragged it there: writes its new order value (and
    /// its new section key, when it changes section) in one transaction, shifting only the rows that must.
    ///
    /// The request must sort by its section key (when sectioned) and then by one `.integer` or `.double`
    /// order attribute, ascending — `[.ascending("category.name"), .ascending("displayIndex")]`. A section
    /// keyed by an attribute gets the destination section's value; one keyed through a to-one relationship
    /// (`category.name`) gets the destination section's foreign key. A `.double` order attribute takes
    /// fractional keys (usually one write: the midpoint of the new neighbours); an `.integer` one shifts the
    /// rows after the destination until a gap absorbs the shift — so a move may rewrite the order values of
    /// other rows (those between the drop point and the next gap), in the same transaction. The order
    /// attribute must be the last sort descriptor: one after it would order rows with equal order values,
    /// which a move cannot place between by writing an order value.
    ///
    /// The UI already shows the move, so the delegate hears only what it does not show: nothing for the
    /// dragged row, but the deletion of a section the move emptied, an update of each row whose order value
    /// the move shifted (an `.integer` order attribute) — and, as usual, whatever other writers change. Never
    /// a reload. The dragged row's object in the results carries its new order value (and section key); read
    /// it with ``ResultsSnapshot/object(at:)`` after the move.
    ///
    /// ```swift
    /// // UITableViewDataSource.tableView(_:moveRowAt:to:)
    /// try await controller.moveObject(from: RowPath(section: 0, row: 0), to: RowPath(section: 1, row: 2))
    /// ```
    ///
    /// `to` is the row's final position, as a table view reports it (counted without the row in its old
    /// place).
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` when the request is not sorted that way;
    ///   ``FetchKitError/Code/invalidValue`` for a path outside the results; the write's error — then nothing
    ///   was written, and the delegate receives the batch that moves the row back to where the results have it.
    /// - Complexity: O(*n*) for *n* results (the new results are rebuilt), plus the rows written.
    public func moveObject(from: RowPath, to: RowPath) async throws {
        try await perform { .moveObject(.paths(from: from, to: to), $0) }
    }

    /// What a move writes and the results around it, planned from `current` (see ``planMove(from:to:in:)``).
    struct MovePlan {
        /// The dragged row's primary key.
        var key: Value
        /// The attributes written to the dragged row, and the order values of the rows it shifts.
        var changes: Row
        var shifted: [(key: Value, value: Value)]
        /// The results as the UI shows them once it moved the row (an emptied section still there, shifted rows
        /// with their old order values).
        var shown: ResultsSnapshot<Object>
        /// The results once the move is written (an emptied section gone).
        var expected: ResultsSnapshot<Object>
        /// The entity written, and its order attribute.
        var entityName: String
        var order: String
        /// The move by identity: just before the row that follows it in `shown`, or at the end of its section.
        var destination: MoveDestination
    }

    /// Plans moving the row at `from` of `current` to `to`; `nil` when the row stays where it is.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` when the request cannot take moves,
    ///   ``FetchKitError/Code/invalidValue`` for a path outside `current`.
    func planMove(from: RowPath, to: RowPath, in current: ResultsSnapshot<Object>, request: AnyFetchRequest) throws
        -> MovePlan?
    {
        let schema = store.schema
        let entity = try schema.entity(named: request.entityName)
        let shape = try MoveShape(request: request, entity: entity, schema: schema)
        var sections = current.sectionNames.indices.map { section in
            current.sectionRange(section).map { current.entries[$0].row }
        }
        guard sections.indices.contains(from.section), sections[from.section].indices.contains(from.row) else {
            throw FetchKitError.invalidValue(
                "no row at \(from) to move: the results have \(current.sectionCounts) rows per section")
        }
        var dragged = sections[from.section].remove(at: from.row)
        guard sections.indices.contains(to.section), (0...sections[to.section].count).contains(to.row) else {
            throw FetchKitError.invalidValue(
                "cannot move a row to \(to): the results have \(current.sectionCounts) rows per section")
        }
        if from == to { return nil }

        // What to write: the dragged row's order value (and section key), and the rows it shifts.
        let key = entity.primaryKey.name
        let destination = sections[to.section]
        let plan = ReorderPlan.plan(
            inserting: to.row, into: destination.map { ($0[key] ?? .null, $0[shape.order] ?? .null) },
            fractional: shape.isFractional)
        var changes: Row = [shape.order: plan.dragged]
        dragged.set(shape.order, to: plan.dragged)
        if from.section != to.section, let neighbour = destination.first {
            for column in shape.sectionColumns {
                guard let value = neighbour[column] else {
                    throw FetchKitError.unsupported(
                        "moving between sections needs the request to fetch \(SafeText.quoted(column))")
                }
                dragged.set(column, to: value)
            }
            for column in shape.writtenSectionColumns { changes.set(column, to: neighbour[column] ?? .null) }
        }
        // The results as the UI shows them now: the dragged row in its new place with the values the move
        // gives it, every other row as it was (an emptied section still there).
        var shownSections = sections
        shownSections[to.section].insert(dragged, at: to.row)
        // The results once the move is written: the shifted rows carry their new order values, so the batch
        // from what the UI shows reports them as updated (the UI shows their old objects).
        let shifted = Dictionary(plan.shifted.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        sections[to.section] = destination.map { row in
            guard let value = shifted[row[key] ?? .null] else { return row }
            var row = row
            row.set(shape.order, to: value)
            return row
        }
        sections[to.section].insert(dragged, at: to.row)

        let order = Self.incrementalOrder(for: request, in: schema)
        let names = current.sectionNames
        let shown = try snapshot(of: shownSections, names: names, key: key, order: order)
        let kept = sections.indices.filter { !sections[$0].isEmpty }
        let expected = try snapshot(
            of: kept.map { sections[$0] }, names: kept.map { names[$0] }, key: key, order: order)
        let successor = sections[to.section].dropFirst(to.row + 1).first.map { $0[key] ?? .null }
        return MovePlan(
            key: dragged[key] ?? .null, changes: changes, shifted: plan.shifted.map { ($0.key, $0.value) },
            shown: shown, expected: expected, entityName: entity.name, order: shape.order,
            destination: successor.map { .before($0) } ?? .endOfSection(names[to.section]))
    }

    /// Runs a move on the controller's task (see ``moveObject(from:to:)``); `delegateShowsMove` when the
    /// delegate's UI already shows it (``moveObject(from:to:)``'s contract), so that it hears only the rest.
    ///
    /// The move is planned twice: on the results, for what the UI shows at once, then again inside the write's
    /// transaction, by identity, on the rows as the database has them then — so that a writer's commit the
    /// results do not show yet (a row inserted into the same gap, appended to the same section) cannot put the
    /// dragged row anywhere but where the view shows it.
    ///
    /// - Complexity: O(*n*) for *n* results, plus one fetch of the request inside the write.
    func performMove(from: RowPath, to: RowPath, delegateShowsMove: Bool = true) async throws {
        let (request, current) = state.withLock { ($0.request, $0.snapshot) }
        guard let staged = try planMove(from: from, to: to, in: current, request: request) else { return }
        if delegateShowsMove { send(.moveShown(current: current, shown: staged.shown)) }
        let target = MoveTarget.key(staged.key, staged.destination)
        let fetch = request.sectionOrdered
        let schema = store.schema
        let written: MovePlan?
        do {
            written = try await store.write { tx in
                let rows = try tx.fetch(fetch)
                let entity = try schema.entity(named: request.entityName)
                let latest = ResultsSnapshot(
                    rows: rows, objects: try self.materializer.make(rows), primaryKey: entity.primaryKey.name,
                    sectionKey: request.sectionNameKeyPath, order: Self.incrementalOrder(for: request, in: schema))
                let (from, to) = try self.resolve(target, in: latest)
                guard let plan = try self.planMove(from: from, to: to, in: latest, request: request) else {
                    return nil
                }
                try tx.update(plan.entityName, key: plan.key, set: plan.changes)
                for (key, value) in plan.shifted { try tx.update(plan.entityName, key: key, set: [plan.order: value]) }
                return plan
            }
        } catch {
            // The UI shows the move, the database does not: move the row back.
            let back = try ResultsDiff.changeset(from: staged.shown, to: current)
            await publish(current, previous: staged.shown, changeset: back, transactionID: nil, origin: .local)?
                .perform()
            throw error
        }
        // Nothing written: the database already has the row where the view shows it; its commits bring the
        // results there.
        guard let plan = written else { return }
        // The router may have re-read the rows of a change published before the write committed — one still
        // queued behind this move — and those images carry the order values from before it: applied after it,
        // they would undo what the move wrote (a renumbered section shuffled, the dragged row sent back), until
        // the move's own change put it back. Every change published so far has its rows re-read by the controller.
        // The move's own change is published first (in commit order, after every change committed before it).
        await store.waitForPublication()
        let writtenThrough = store.lastTransactionID
        // From what the UI shows (the move as planned on the results) to the results once written, which show
        // what the database had when the move was planned again.
        let changeset = try ResultsDiff.changeset(from: staged.shown, to: plan.expected)
        await publish(
            plan.expected, previous: staged.shown, changeset: changeset, transactionID: nil, origin: .local,
            events: [.moveWritten(through: writtenThrough)]
        )?.perform()
        // The results now show commits they did not show before the write: the router follows the keys that
        // entered and left with them (their own changes, still on their way, then change nothing).
        let before = Set(current.keys)
        let after = Set(plan.expected.keys)
        if before != after {
            router.finish(
                routeID, entered: Array(after.subtracting(before)), left: Array(before.subtracting(after)), count: 0)
        }
    }

    /// A snapshot of `sections` (rows in order, possibly empty sections) named `names`.
    private func snapshot(of sections: [[Row]], names: [String], key: String, order: SortKeyOrder?) throws
        -> ResultsSnapshot<Object>
    {
        let named = try zip(names, sections).map { name, rows in
            (name: name, entries: Array(zip(rows, try materializer.make(rows))).map { (row: $0.0, object: $0.1) })
        }
        return ResultsSnapshot(sections: named, primaryKey: key, order: order)
    }
}

/// What a move writes, read from the request: the order attribute, and the columns that carry the section.
struct MoveShape {
    /// The order attribute's name.
    let order: String
    /// Whether it takes fractional keys (a `.double` attribute).
    let isFractional: Bool
    /// The result columns a row takes from its new section: the section key path and, for a section through a
    /// relationship, the foreign key.
    let sectionColumns: [String]
    /// The attributes written to change section: the section attribute, or the relationship's foreign key.
    let writtenSectionColumns: [String]

    init(request: AnyFetchRequest, entity: Entity, schema: Schema) throws {
        let sorts = request.sortDescriptors
        let expected =
            "sorted by " + (request.sectionNameKeyPath.map { "\(SafeText.quoted($0)) then " } ?? "")
            + "one integer or double order attribute, ascending"
        var orderIndex = 0
        var sectionColumns: [String] = []
        var written: [String] = []
        let orderPosition = request.sectionNameKeyPath == nil ? 0 : 1
        if sorts.count > orderPosition + 1 {
            let extra = sorts[(orderPosition + 1)...].map { "\(SafeText.quoted($0.key))" }.joined(separator: ", ")
            throw FetchKitError.unsupported(
                "moveObject needs the order attribute \(SafeText.quoted(sorts[orderPosition].key)) as the last "
                    + "sort descriptor; "
                    + "\(extra) after it would order rows whose order values are equal, and a move places a row "
                    + "by writing its order value alone — make the order values unique and drop \(extra)")
        }
        if let sectionKey = request.sectionNameKeyPath {
            guard sorts.count == 2, sorts[0].key == sectionKey else {
                throw FetchKitError.unsupported("moveObject needs a request \(expected)")
            }
            orderIndex = 1
            let path = try schema.resolve(FetchPredicate.Key(sectionKey), from: entity)
            if path.hops.isEmpty {
                sectionColumns = [sectionKey]
                written = [path.attribute.name]
            } else if path.hops.count == 1, path.hops[0].isToOne {
                let foreignKey = path.hops[0].foreignKey.name
                sectionColumns = [sectionKey, foreignKey]
                written = [foreignKey]
            } else {
                throw FetchKitError.unsupported(
                    "moveObject can change a section keyed by an attribute or a to-one relationship, not "
                        + "\(SafeText.quoted(sectionKey))"
                )
            }
        } else if sorts.count != 1 {
            throw FetchKitError.unsupported("moveObject needs a request \(expected)")
        }
        let descriptor = sorts[orderIndex]
        guard descriptor.ascending, let attribute = entity.attribute(named: descriptor.key),
            attribute.type == .integer || attribute.type == .double
        else {
            throw FetchKitError.unsupported(
                "moveObject needs a request \(expected); \(SafeText.quoted(descriptor.key)) is not one")
        }
        order = attribute.name
        isFractional = attribute.type == .double
        self.sectionColumns = sectionColumns
        writtenSectionColumns = written
    }
}
