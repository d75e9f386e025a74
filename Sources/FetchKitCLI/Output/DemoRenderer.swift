import FetchKit

/// Prints a snapshot of todos as sections of rows.
enum DemoRenderer {
    static func list(_ snapshot: ResultsSnapshot<Todo>) -> String {
        var out = ""
        for (index, section) in snapshot.sections.enumerated() {
            out += "   ▸ \(section.name.isEmpty ? "(none)" : section.name) — \(section.numberOfObjects) row(s)\n"
            for (row, todo) in section.objects.enumerated() {
                out += "     [\(index), \(row)] \(todo.done ? "✓" : "·") \(todo.title)  (priority \(todo.priority))\n"
            }
        }
        return out
    }
}
