using System;

public static class Program
{
    public static void Main()
    {
        int x = "Yes";
        Console.WriteLine(x);
    }
}
