fun main() {
    val x = 0
    x = 1
    println(if (x != 0) "Yes" else "No")
}
