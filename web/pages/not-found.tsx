import { AlertCircle } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";

export default function NotFoundPage() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 text-center">
          <AlertCircle className="text-destructive mx-auto size-10" />
          <h2 className="text-2xl font-bold">Page Not Found</h2>
          <p className="text-muted-foreground text-sm">The page you are looking for does not exist or has moved.</p>
          <Button asChild>
            <Link href="/">Back to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
