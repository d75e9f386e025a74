import FetchKit

/// Prints a snapshot as sections of rows.
enum DemoRenderer {
    static func list(_ snapshot: ResultsSnapshot<Row>) -> String {
        var out = ""
        for (index, section) in snapshot.sections.enumerated() {
            out += "   ▸ \(section.name.isEmpty ? "(none)" : section.name) — \(section.numberOfObjects) row(s)\n"
            for (row, object) in section.objects.enumerated() {
                let done = object["done", as: Bool.self] == true ? "✓" : "·"
                let title = object["title", as: String.self] ?? "?"
                let priority = object["priority", as: Int.self] ?? 0
                out += "     [\(index), \(row)] \(done) \(title)  (priority \(priority))\n"
            }
        }
        return out
    }
}
