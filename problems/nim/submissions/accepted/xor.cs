using System;
using System.IO;

public static class Program
{
    public static void Main()
    {
        var words = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        int n = int.Parse(words[0]);
        int x = 0;
        for (int i = 1; i <= n; i++) x ^= int.Parse(words[i]);
        Console.WriteLine(x != 0 ? "Yes" : "No");
    }
}
