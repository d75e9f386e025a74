@_spi(Backend) import FetchKit

@testable import FetchKit

/// The table the routing tests route: `hot(id, grp, v)`, and the plans of requests on it.
enum HotTable {
    static let entity = Entity(
        "Hot", table: "hot", primaryKey: .integer("id"),
        attributes: [Attribute("grp", .integer), Attribute("v", .integer)])
    static let dialect = SQLDialect(name: "Q", placeholderStyle: .questionMark)

    static func plan(_ request: FetchRequest<Row>) throws -> RoutePlan {
        try RoutePlan(request: request.erased, schema: try Schema([entity]), dialect: dialect, incremental: true)
    }
}
