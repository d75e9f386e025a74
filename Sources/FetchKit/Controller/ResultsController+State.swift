extension ResultsController {
    /// Everything the controller's lock protects: its machine — one value, changed only by its events — and the
    /// request it was made with.
    struct State {
        /// The controller's state and decisions: its audience, results, lifecycle, request (``ControllerMachine``).
        var machine = ControllerMachine<Object>()
        /// The request the controller was made with, until a fetch installs one (``ControllerMachine/installed``).
        let initialRequest: AnyFetchRequest

        /// The metrics of the controller's entity and route, as of its last batch (``RouteMetrics``).
        var routeMetrics: RouteMetrics?

        init(request: AnyFetchRequest) {
            initialRequest = request
        }

        /// The metrics of the controller's entity and route now, from `router` when they changed.
        mutating func currentRouteMetrics(in router: ChangeRouter) -> RouteMetrics {
            let kind = ResultsController.routing(of: self)
            let entity = request.entityName
            if let routeMetrics, routeMetrics.kind == kind, routeMetrics.entity == entity { return routeMetrics }
            let metrics = router.routeMetrics(entity: entity, kind: kind)
            routeMetrics = metrics
            return metrics
        }

        /// The request the results answer (the machine's, once a fetch installed one).
        var request: AnyFetchRequest { machine.installed?.request ?? initialRequest }
        /// What the controller knows of its request's tables.
        var shape: RequestShape { machine.installed?.shape ?? RequestShape() }
        /// The router's plan for the current request (installed by each successful fetch; none for a follower).
        var plan: RoutePlan? { machine.installed?.plan }

        /// The delegate (``ControllerMachine/audience``).
        var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)? { machine.audience.delegate }
        /// The actor the delegate's callbacks run on.
        var delegateActor: (any Actor)? { machine.audience.delegateActor }
        /// The readers of the update sequences.
        var subscribers: UpdateSubscribers<Object>? { machine.audience.subscribers }
        /// Whether every change goes through the incremental path when it can.
        var isIncrementalEnabled: Bool { machine.isIncrementalEnabled }
        /// Its part in shared results (the machine's: see ``ControllerMachine/sharing``).
        var sharing: SharingRole<Object> { machine.sharing }
        /// The tables the request reads.
        var tables: Set<String> { shape.tables }
        /// The entity's primary key.
        var primaryKeyName: String { shape.primaryKeyName }
        /// The type of the entity's primary key.
        var primaryKeyType: AttributeType { shape.primaryKeyType }
        /// The table of the request's entity.
        var entityTable: String { shape.entityTable }
        /// Related tables the incremental path localises, with the entity's foreign key into each.
        var relatedForeignKeys: [String: String] { shape.relatedForeignKeys }
        /// To-many related tables the incremental path localises, with each one's foreign key into the entity.
        var childForeignKeys: [String: String] { shape.childForeignKeys }
        /// The columns of the controller's rows, for rows the router re-read.
        var rowLayout: RowLayout? { shape.rowLayout }
        /// The current results.
        var snapshot: ResultsSnapshot<Object> { machine.results }
        /// Whether the results were fetched at least once.
        var hasFetched: Bool { machine.hasFetched }
        /// Whether the controller follows the database.
        var status: ResultsStatus { machine.status }
        /// `true` while the controller cannot read the database and retries.
        var isStale: Bool { machine.isStale }
        /// The last transaction applied.
        var appliedThrough: UInt64 { machine.appliedThrough }
    }
}

/// Turns fetched rows into the controller's object type and finds an object's primary key.
struct Materializer<Object: Sendable>: Sendable {
    let make: @Sendable ([Row]) throws -> [Object]
    let key: @Sendable (Object, String) -> Value?
}

extension Materializer where Object == Row {
    static var rows: Materializer<Row> {
        Materializer(make: { $0 }, key: { row, name in row[name] })
    }
}

extension Materializer {
    static func records<R: Record>(_ type: R.Type) -> Materializer<R> {
        Materializer<R>(
            make: { rows in try R.records(from: rows) },
            key: { record, name in (try? RecordCoding.encode(record))?[name] })
    }
}

extension ResultsController {
    /// `rows` as this controller's objects, made as its own fetches make them (another module of the package
    /// rebuilds a snapshot of this controller's request with them).
    package func objects(from rows: [Row]) throws -> [Object] { try materializer.make(rows) }
}
